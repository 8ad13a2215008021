// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42,43
// Two rounds of a parallel sum: each worker writes its partial result,
// all meet at the barrier, then worker 0 adds them up. The partial array
// is reused by round 2 without a second barrier, so worker 1 can write
// its round-2 value before worker 0 has read round 1. (The summary said
// only which value the read saw; now that the writer ran its statement
// again before the read, with nothing to make it wait.)
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <assert.h>
#define N 2
static int partial[N];
static int totals[2];
static pthread_barrier_t bar;

static void *worker(void *arg) {
    int id = (int)(long)arg;
    for (int round = 0; round < 2; round++) {
        partial[id] = (round + 1) * (id + 1);
        pthread_barrier_wait(&bar);
        if (id == 0) {
            int s = 0;
            for (int i = 0; i < N; i++)
                s += partial[i];
            totals[round] = s;
        }
        /* BUG: missing pthread_barrier_wait(&bar) here */
    }
    return NULL;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&bar, NULL, N);
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&bar);
    assert(totals[0] == 3);
    assert(totals[1] == 6);
    return 0;
}
