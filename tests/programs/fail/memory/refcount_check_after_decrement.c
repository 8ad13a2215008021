// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=17,18
// Reference counting whose release decrements the count atomically but
// checks it with a separate read: when both users decrement before either
// reads, both see 0 and both free, or one frees and the other's read of
// the count touches the freed block.
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct obj { atomic_int refs; int data; };
static struct obj *shared;

static void release(struct obj *o) {
    atomic_fetch_sub(&o->refs, 1);
    if (atomic_load(&o->refs) == 0)   /* bug: the decrement's result is not used */
        free(o);
}

static void *user(void *a) {
    (void)a;
    __atomic_fetch_add(&shared->data, 1, __ATOMIC_RELAXED);
    release(shared);
    return 0;
}

int main(void) {
    shared = malloc(sizeof *shared);
    atomic_init(&shared->refs, 2);
    shared->data = 0;
    pthread_t a, b;
    pthread_create(&a, 0, user, 0);
    pthread_create(&b, 0, user, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
