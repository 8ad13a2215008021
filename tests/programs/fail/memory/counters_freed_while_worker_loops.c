// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=20
// A worker counts in a loop until main sets `stop`; main sets it and frees
// the counters right away, without joining the worker first. The worker
// may have read `stop` as 0 just before, and its next increment touches
// the freed block: the fix is the join before the free.
// (MCR used to find nothing here: once the worker read `stop` first, it
// looped to the step limit in every run, and a random probe's run of
// 10,474 steps was shown and explained for minutes.)
#include <pthread.h>
#include <stdlib.h>

static int stop;
static int *counters;

static void *worker(void *arg) {
    (void)arg;
    while (!stop)
        counters[0]++;
    return NULL;
}

int main(void) {
    counters = calloc(4, sizeof(int));
    pthread_t w;
    pthread_create(&w, NULL, worker, NULL);
    stop = 1;
    free(counters);
    pthread_join(w, NULL);
    return 0;
}
