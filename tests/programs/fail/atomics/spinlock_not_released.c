// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=16,29,30
// A compare-and-swap spin lock whose holder returns early on one path
// without releasing it: the other worker spins on the lock word forever
// (whichever takes the lock first, the early return happens).
#include <pthread.h>
#include <stdatomic.h>

static atomic_int lock_word;
static int counter;

static void *worker(void *arg) {
    (void)arg;
    int expected = 0;
    while (!atomic_compare_exchange_strong(&lock_word, &expected, 1))
        expected = 0;
    counter++;
    if (counter == 1)
        return 0; /* the first one forgets to release */
    atomic_store(&lock_word, 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
