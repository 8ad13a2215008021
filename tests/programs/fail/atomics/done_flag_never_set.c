// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=25
// The last of two workers to finish sets `done`, which main spins on.
// The workers count themselves with an unlocked increment: when both read
// 0, both see a count of 1, neither thinks it is last, and main spins for
// good.
#include <pthread.h>

static volatile int done;
static int finished;

static void *worker(void *arg) {
    (void)arg;
    finished++;
    if (finished == 2)
        done = 1;
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, 0);
    while (!done)
        ;
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    return 0;
}
