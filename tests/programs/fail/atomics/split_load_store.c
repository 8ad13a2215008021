// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// causa: flags=--strategy pct --depth 2
// Each access is atomic, but the increment is a separate load and store, so a
// preemption between them loses the other thread's increments. One priority
// change point (PCT depth 2) is enough to expose it.

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int hits = 0;

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        int v = atomic_load(&hits);
        atomic_store(&hits, v + 1);
    }
    return NULL;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    assert(atomic_load(&hits) == 4);
    return 0;
}
