// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=24
// A configuration range replaced with one struct assignment: the copy is
// one step here, but the user reads `hi` and `lo` in two, so the copy can
// land between them and pair the old `hi` with the new `lo`.
#include <pthread.h>
#include <assert.h>

struct range { int lo, hi; };
static struct range cfg = { 0, 10 };

static void *updater(void *arg) {
    (void)arg;
    struct range next = { 100, 200 };
    cfg = next;
    return 0;
}

static void *user(void *arg) {
    (void)arg;
    int hi = cfg.hi;
    int lo = cfg.lo;
    assert(lo < hi);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, updater, 0);
    pthread_create(&t2, 0, user, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
