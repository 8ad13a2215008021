// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=32
// A reference-counted object handed to a worker through a global: the
// worker takes its own reference (`o->refs++`) only once it runs, and
// main drops its reference right after creating it. When main's `put`
// runs first, it sees the count at 1, frees the object, and the worker's
// increment lands in freed memory. The explanation told only that
// main's read of `refs` saw 1 in both schedules; the fix is to take the
// worker's reference before it can be dropped.
#include <pthread.h>
#include <stdlib.h>

struct obj {
    int refs;
    int value;
};
struct obj *shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void put(struct obj *o) {
    pthread_mutex_lock(&m);
    int last = --o->refs == 0;
    pthread_mutex_unlock(&m);
    if (last)
        free(o);
}

void *user(void *arg) {
    struct obj *o = shared;
    pthread_mutex_lock(&m);
    o->refs++;
    pthread_mutex_unlock(&m);
    int v = o->value;
    put(o);
    return (void *)(long)v;
}

int main(void) {
    shared = malloc(sizeof *shared);
    shared->refs = 1;
    shared->value = 7;
    pthread_t t;
    pthread_create(&t, 0, user, 0);
    put(shared);
    pthread_join(t, 0);
    return 0;
}
