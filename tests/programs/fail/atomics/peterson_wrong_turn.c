// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=25
// Peterson's algorithm with the classic mistake: each thread gives the turn
// to itself instead of to the other. If both raise their flags, the second to
// write `turn` wins it for itself while the first already went in, so both
// can be in the critical section at once.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static volatile int flag[2];
static volatile int turn;
static int in_cs;
static int counter;

static void *worker(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    flag[me] = 1;
    turn = me; /* BUG: must be other */
    while (flag[other] && turn == other) {
    }
    in_cs++;
    assert(in_cs == 1);
    counter++;
    in_cs--;
    flag[me] = 0;
    return NULL;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("counter %d\n", counter);
    return 0;
}
