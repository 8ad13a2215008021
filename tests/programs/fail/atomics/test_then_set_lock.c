// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=30
// A lock that waits for the word to be free and then sets it, in two
// steps: both threads can see it free (its initial 0) before either sets
// it, and their increments race. `causa check` said "verified": it asked
// only for values a read did not see, and 0 was also what the other
// thread's release wrote.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

static atomic_int lock;
static int counter;

static void *worker(void *arg) {
    (void)arg;
    while (atomic_load(&lock) != 0)
        ;
    atomic_store(&lock, 1);
    counter++;
    atomic_store(&lock, 0);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(counter == 2);
    return 0;
}
