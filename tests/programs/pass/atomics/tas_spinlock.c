// causa: expect=no-bug
// causa: check=verified
// causa: stdout=counter 4
// A spin lock on atomic_flag_test_and_set: each waiting turn is a
// test-and-set that finds the flag set and writes it back, changing
// nothing, so `causa check` parks the loop as it parks a read loop and
// verifies mutual exclusion (it ran into the step bound before).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_flag lock = ATOMIC_FLAG_INIT;
static int counter;

static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        while (atomic_flag_test_and_set(&lock))
            ;
        counter++;
        atomic_flag_clear(&lock);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    printf("counter %d\n", counter);
    return counter == 4 ? 0 : 1;
}
