// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=19
// A reader uses the current configuration while a reloader swaps in a new
// one and frees the old one at once (no grace period).
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>

struct config {
    int timeout;
    int retries;
};
struct config *current;

void *reader(void *arg) {
    (void)arg;
    struct config *c = current;
    int total = c->timeout * c->retries;
    printf("budget %d\n", total);
    return 0;
}

void *reloader(void *arg) {
    (void)arg;
    struct config *fresh = malloc(sizeof *fresh);
    fresh->timeout = 30;
    fresh->retries = 5;
    struct config *old = current;
    current = fresh;
    free(old);
    return 0;
}

int main(void) {
    current = malloc(sizeof *current);
    current->timeout = 10;
    current->retries = 3;
    pthread_t r, w;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, reloader, 0);
    pthread_join(r, 0);
    pthread_join(w, 0);
    free(current);
    return 0;
}
