// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=21
// Order violation: main starts the worker before it publishes the config.
// If the worker runs first it dereferences the still-NULL `config` pointer.

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct config {
    int verbose;
    int block_size;
};

struct config *config = NULL;
int blocks = 0;

void *worker(void *arg) {
    (void)arg;
    int size = config->block_size;
    blocks = 64 / size;
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    struct config *c = malloc(sizeof *c);
    if (c == NULL)
        return 1;
    c->verbose = 0;
    c->block_size = 16;
    config = c;
    pthread_join(t, NULL);
    printf("blocks=%d\n", blocks);
    free(c);
    return 0;
}
