// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42
// Two users each drop their reference with a read and a write that are
// not one atomic step: both can read 2 and write 1, and the count never
// reaches 0. The object lives on the heap, so events name it heap#1.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct obj {
    int refs;
    int payload;
};

static struct obj *shared;

static void put(struct obj *o) {
    int r = o->refs;      /* not atomic: read ... */
    o->refs = r - 1;      /* ... then write */
    if (r - 1 == 0) {
        o->payload = -1;  /* "freed" */
    }
}

static void *user(void *arg) {
    struct obj *o = shared;
    assert(o->payload == 7);
    put(o);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    shared = malloc(sizeof *shared);
    shared->refs = 2;
    shared->payload = 7;
    pthread_create(&a, NULL, user, NULL);
    pthread_create(&b, NULL, user, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(shared->refs == 0);
    free(shared);
    return 0;
}
