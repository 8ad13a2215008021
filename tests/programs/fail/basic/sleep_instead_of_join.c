// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=25
// The user thread sleeps "until the init thread is surely done" and reads
// the configuration pointer: a sleep orders nothing, and the read can come
// first.
#include <pthread.h>
#include <unistd.h>
#include <assert.h>
#include <stdlib.h>

static int *config;

static void *init(void *arg) {
    (void)arg;
    int *c = malloc(sizeof *c);
    *c = 42;
    config = c;
    return 0;
}

static void *use(void *arg) {
    (void)arg;
    usleep(1000); /* "the init thread is surely done by now" */
    assert(config != 0);
    return (void *)(long)*config;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, init, 0);
    pthread_create(&b, 0, use, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    free(config);
    return 0;
}
