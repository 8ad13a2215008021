// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=19
// causa: solver-unsupported=a barrier more threads wait at than it lets through at a time
// Three workers fill their part of a table and meet at a barrier before
// worker 0 sums it, but the barrier was initialised for two: the first two
// to arrive pass, and the third waits forever, in every order. (Explaining
// it said only that no order avoids the deadlock: each thread's arrival
// counted as the barrier's first generation, one of three.)
#include <assert.h>
#include <pthread.h>

pthread_barrier_t filled;
int part[3], total;

void *worker(void *arg) {
    int id = *(int *)arg;
    part[id] = id + 1;
    pthread_barrier_wait(&filled);
    if (id == 0)
        total = part[0] + part[1] + part[2];
    return 0;
}

int main(void) {
    pthread_t t[3];
    int ids[3] = {0, 1, 2};
    pthread_barrier_init(&filled, 0, 2); /* BUG: three workers wait */
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, &ids[i]);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(total == 6);
    return 0;
}
