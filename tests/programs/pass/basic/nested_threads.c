// causa: expect=no-bug
// causa: check=verified
// main starts a coordinator, which itself starts two workers and joins them
// before adding their results. Each level joins the threads it created, so
// all writes are finished before they are read.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int partial[2];
int total = 0;

void *leaf(void *arg) {
    int id = (int)(long)arg;
    partial[id] = (id + 1) * 10;
    return NULL;
}

void *coordinator(void *arg) {
    (void)arg;
    pthread_t kids[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&kids[i], NULL, leaf, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(kids[i], NULL);
    total = partial[0] + partial[1];
    return NULL;
}

int main(void) {
    pthread_t c;
    pthread_create(&c, NULL, coordinator, NULL);
    pthread_join(c, NULL);
    assert(total == 30);
    return 0;
}
