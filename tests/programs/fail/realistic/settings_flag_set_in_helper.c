// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42
// A loader fills a settings record; a helper it calls first stores the
// name and raises `ready` too early, before the loader stores the limit
// and its check value. The reader waits for `ready`, then reads the limit
// and the check value. Explained from a run where the reader saw the new
// limit and the old check value, the advice was one lock over both writes
// and both reads, which does not help: the reader went on because of
// `ready`, which has to be raised after the writes.
#include <assert.h>
#include <pthread.h>

struct settings {
    int name;
    int limit;
    int check;
};

static struct settings s;
static volatile int ready;

static void set_name(struct settings *st, int name) {
    st->name = name;
    ready = 1; /* bug: raised before the other fields are stored */
}

static void *loader(void *arg) {
    (void)arg;
    set_name(&s, 7);
    s.limit = 64;
    s.check = s.limit + 1;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    while (!ready)
        ;
    int limit = s.limit;
    int check = s.check;
    assert(check == limit + 1);
    return 0;
}

int main(void) {
    pthread_t r, l;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&l, 0, loader, 0);
    pthread_join(l, 0);
    pthread_join(r, 0);
    return 0;
}
