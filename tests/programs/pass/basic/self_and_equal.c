// causa: expect=no-bug
// causa: check=verified
// Threads record pthread_self() in their slot; main checks with pthread_equal
// that the recorded ids match the ids pthread_create returned and that the
// two threads are different from each other and from main.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

pthread_t seen[2];

void *record(void *arg) {
    int slot = (int)(long)arg;
    seen[slot] = pthread_self();
    return NULL;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, record, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(pthread_equal(seen[0], t[0]));
    assert(pthread_equal(seen[1], t[1]));
    assert(!pthread_equal(seen[0], seen[1]));
    assert(!pthread_equal(pthread_self(), t[0]));
    return 0;
}
