// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=28,29,34,35
// A configuration swapped by a reloader while readers take references:
// the reader reads `current`, then increments the block's count. When the
// reloader replaces `current` and drops the last reference in between,
// the reader's increment takes the count from 0 back to 1 and both free
// the block (or the reader uses it after the free). The summary told the
// reloader's decrement and free made atomic, which leaves the stale
// pointer; it now tells the reference taken from 0. `causa reproduce`'s
// solver once ordered the reloader's free (of a pointer read from
// `current`) before the reader's increment on runs failing at the read
// of `timeout`: its schedule failed earlier, at the increment, since the
// model kept accesses before frees of known blocks only.

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct conf {
    atomic_int refs;
    int timeout;
};

static struct conf *current;

static void put(struct conf *c) {
    if (atomic_fetch_sub(&c->refs, 1) == 1)
        free(c);
}

static void *reader(void *arg) {
    struct conf *c = current;
    atomic_fetch_add(&c->refs, 1);
    int t = c->timeout;
    put(c);
    return (void *)(long)t;
}

static void *reloader(void *arg) {
    struct conf *n = malloc(sizeof *n);
    atomic_init(&n->refs, 1);
    n->timeout = 20;
    struct conf *old = current;
    current = n;
    put(old);
    return 0;
}

int main(void) {
    current = malloc(sizeof *current);
    atomic_init(&current->refs, 1);
    current->timeout = 10;
    pthread_t r, w;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, reloader, 0);
    pthread_join(r, 0);
    pthread_join(w, 0);
    put(current);
    return 0;
}
