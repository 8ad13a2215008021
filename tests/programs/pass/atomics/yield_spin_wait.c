// causa: expect=no-bug
// causa: check=verified
// The consumer spins on an atomic flag, yielding each round, until the
// producer has published `data`. The data write comes before the flag store
// and accesses are sequentially consistent, so the consumer always sees 42.

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

int data = 0;
atomic_int ready = 0;

void *producer(void *arg) {
    (void)arg;
    data = 42;
    atomic_store(&ready, 1);
    return NULL;
}

void *consumer(void *arg) {
    (void)arg;
    while (!atomic_load(&ready))
        sched_yield();
    assert(data == 42);
    return NULL;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(c, NULL);
    pthread_join(p, NULL);
    return 0;
}
