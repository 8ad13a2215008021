// Lost-update family: THREADS threads (default 4; bench/check.sh builds 2, 3
// and 4 with --cflags=-DTHREADS=N) each increment a shared counter with a
// separate load and store (no lock). No assertion, so `causa check` explores
// every reachable state and `causa test --strategy dfs` every interleaving.
#include <pthread.h>

#ifndef THREADS
#define THREADS 4
#endif
int x;

static void *inc(void *arg) {
    int t = x;
    x = t + 1;
    return 0;
}

int main(void) {
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], 0);
    return 0;
}
