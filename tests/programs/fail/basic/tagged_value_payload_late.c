// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=29
// A tagged value: `kind` says which member of the (unnamed) union holds
// the payload. The writer sets the tag before the payload and the range
// after both; the reader trusts the tag and reads the payload and range.
#include <pthread.h>
#include <assert.h>

struct value {
    int kind;
    union { int i; float f; };
    struct { int lo, hi; } range;
};
static struct value v;

static void *writer(void *arg) {
    (void)arg;
    v.kind = 1;
    v.i = 5;
    v.range.lo = 1;
    v.range.hi = 2;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    if (v.kind == 1)
        assert(v.i == 5 && v.range.hi == 2);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, writer, 0);
    pthread_create(&t2, 0, reader, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
