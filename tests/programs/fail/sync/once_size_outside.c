// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=34
// The table is created once (pthread_once), but its size is published by
// one worker outside the once routine: a worker that runs before it sees
// size 0 and skips its store, so the slot keeps the other worker's id.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int *table;
static int size;

static void init(void) {
    table = calloc(4, sizeof *table);
}

static void *worker(void *arg) {
    int id = *(int *)arg;
    pthread_once(&once, init);
    if (id == 1)
        size = 4;                  /* bug: should be set in init() */
    if (size > 0)
        table[size - 1] = id;
    return 0;
}

int main(void) {
    pthread_t t[2];
    int id[2] = {1, 2};
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, &id[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(table[3] == 2);
    return 0;
}
