// causa: expect=no-bug
// causa: check=verified
// causa: stdout=counter 2
// Dekker's algorithm for two threads, one entry each: a thread that wants to
// enter backs off while it is not its turn and busy-waits for the turn. Under
// sequential consistency mutual exclusion holds, and `causa check` verifies
// it although both waits are unbounded loops.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static volatile int wants[2];
static volatile int turn;
static int in_cs;
static int counter;

static void *worker(void *arg) {
    int me = (int)(long)arg, other = 1 - me;
    wants[me] = 1;
    while (wants[other]) {
        if (turn != me) {
            wants[me] = 0;
            while (turn != me) {
            }
            wants[me] = 1;
        }
    }
    in_cs++;
    assert(in_cs == 1);
    counter++;
    in_cs--;
    turn = other;
    wants[me] = 0;
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
