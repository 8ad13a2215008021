// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=17
// The main thread sets the configuration and meets the worker at a
// barrier; the worker reads the configuration before its wait instead of
// after it, so it can read it before main has set it.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_barrier_t phase;
static int config;

static void *worker(void *arg) {
    int seen = config;
    pthread_barrier_wait(&phase);
    assert(seen == 42);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_barrier_init(&phase, NULL, 2);
    pthread_create(&t, NULL, worker, NULL);
    config = 42;
    pthread_barrier_wait(&phase);
    pthread_join(t, NULL);
    printf("ok\n");
    return 0;
}
