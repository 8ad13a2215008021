// causa: expect=no-bug
// causa: check=verified
// causa: stdout=counter 3
// A spin lock on compare-and-swap for three threads: a failed
// compare-and-swap writes back what it read, so the waiting loop changes
// nothing and is parked until the holder's release.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int lock;
static int counter;

static void acquire(void) {
    int expected = 0;
    while (!atomic_compare_exchange_weak(&lock, &expected, 1))
        expected = 0;
}

static void *worker(void *arg) {
    (void)arg;
    acquire();
    counter++;
    atomic_store(&lock, 0);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    printf("counter %d\n", counter);
    return counter == 3 ? 0 : 1;
}
