// causa: expect=no-bug
// causa: check=verified
// Three threads call pthread_once on the same control. The init routine runs
// exactly once and every caller returns only after it has finished, so each
// thread sees the table initialised and the init count is 1.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
int init_calls = 0;
int table[4];

static void init_table(void) {
    init_calls++;
    for (int i = 0; i < 4; i++)
        table[i] = i * i;
}

void *worker(void *arg) {
    int idx = (int)(long)arg;
    pthread_once(&once, init_table);
    assert(table[idx] == idx * idx);
    assert(init_calls == 1);
    return NULL;
}

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    assert(init_calls == 1);
    return 0;
}
