// causa: expect=no-bug
// causa: check=verified
// Threads draw tickets with atomic_fetch_add. Each call returns a distinct
// previous value, so every ticket 0..5 is taken exactly once and the final
// counter is 6.

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define THREADS 3
#define PER_THREAD 2

atomic_int next_ticket = 0;
atomic_int taken[THREADS * PER_THREAD];

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        int t = atomic_fetch_add(&next_ticket, 1);
        assert(t >= 0 && t < THREADS * PER_THREAD);
        atomic_fetch_add(&taken[t], 1);
    }
    return NULL;
}

int main(void) {
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    assert(atomic_load(&next_ticket) == THREADS * PER_THREAD);
    for (int i = 0; i < THREADS * PER_THREAD; i++)
        assert(atomic_load(&taken[i]) == 1);
    return 0;
}
