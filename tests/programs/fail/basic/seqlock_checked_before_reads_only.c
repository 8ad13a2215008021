// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=33
// A sequence lock whose reader tests `seq` only before its reads: the
// writer makes `seq` odd while it writes the pair, and the reader retries
// while the `seq` it read first is odd, but never reads `seq` again after
// reading the pair. A writer that starts after the reader's read of `seq`
// goes unnoticed, and the reader keeps a pair half written. The summary
// told one lock over both writes and both reads; it now names the missing
// second check.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int seq;
static int x, y;

static void *writer(void *arg) {
    atomic_fetch_add(&seq, 1);
    x = 1;
    y = 1;
    atomic_fetch_add(&seq, 1);
    return 0;
}

static void *reader(void *arg) {
    int s, a, b;
    do {
        s = atomic_load(&seq);
        a = x;
        b = y;
    } while (s & 1);
    assert(a == b);
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
