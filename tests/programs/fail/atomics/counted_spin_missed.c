// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=17,28
// flag_pulse_missed.c with a count of the waiter's turns that nothing
// reads: every turn changed the waiter's registers, so the loop was never
// parked as a busy wait; `causa test` ran executions into the step bound
// and said "no bug found".
#include <pthread.h>
#include <stdatomic.h>

static atomic_int ready;
static int payload;

static void *waiter(void *arg) {
    (void)arg;
    unsigned spins = 0;
    while (atomic_load(&ready) == 0)
        spins++;
    return (void *)(long)payload;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    payload = 42;
    atomic_store(&ready, 1);
    atomic_store(&ready, 0);
    pthread_join(t, 0);
    return 0;
}
