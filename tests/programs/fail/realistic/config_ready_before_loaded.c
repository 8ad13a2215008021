// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=30
// A loader thread marks the configuration ready before it stores the
// value; a reader that sees the flag can read the value unset. The main
// thread ends the program with exit() after joining both (so the
// explanation follows main to its exit call).
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <assert.h>

static int ready;
static int timeout_ms;

static void *loader(void *arg) {
    (void)arg;
    ready = 1;
    timeout_ms = 250;
    return NULL;
}

static void *reader(void *arg) {
    (void)arg;
    if (ready) {
        int t = timeout_ms;
        if (t == 0)
            fprintf(stderr, "timeout not loaded yet\n");
        // BUG: the flag is set before the value it announces.
        assert(t == 250);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, loader, NULL);
    pthread_create(&b, NULL, reader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    exit(EXIT_SUCCESS);
}
