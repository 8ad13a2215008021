// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=16,28
// A waiter spins until a ready flag is set; main sets it and clears it
// again right away (a "pulse"). A waiter that reads the flag only after
// the clear never sees it set and spins for good, and main waits for it
// in pthread_join.
#include <pthread.h>
#include <stdatomic.h>

static atomic_int ready;
static int payload;

static void *waiter(void *arg) {
    (void)arg;
    while (atomic_load(&ready) == 0)
        ;
    return (void *)(long)payload;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    payload = 42;
    atomic_store(&ready, 1);
    /* "Reset for the next round": the waiter may not have looked yet. */
    atomic_store(&ready, 0);
    pthread_join(t, 0);
    return 0;
}
