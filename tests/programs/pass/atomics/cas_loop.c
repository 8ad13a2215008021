// causa: expect=no-bug
// causa: check=verified
// The increment is a compare-and-swap loop: a thread retries whenever another
// thread changed the value since its load, so no increment is lost.

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

atomic_int counter = 0;

static void increment(atomic_int *p) {
    int old = atomic_load(p);
    while (!atomic_compare_exchange_weak(p, &old, old + 1))
        ;
}

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++)
        increment(&counter);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(atomic_load(&counter) == 4);
    return 0;
}
