// causa: expect=no-bug
// causa: check=verified
// causa: stdout=counter 2
// Peterson's algorithm for two threads, one entry each, with the classic
// busy-wait `while (flag[other] && turn == other) {}`. Under sequential
// consistency it is correct. `causa check` must verify it: a schedule that
// keeps a waiting thread spinning without letting the other move is not a new
// state (the spinning thread is parked until someone writes what it reads).

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
    turn = other;
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
