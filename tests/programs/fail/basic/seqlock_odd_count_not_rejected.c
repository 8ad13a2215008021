// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A sequence lock: the writer makes `seq` odd while it updates the pair,
// even when done. The reader retries when `seq` changed, but does not
// reject an odd `seq`, so it can read the pair half updated.
#include <assert.h>
#include <pthread.h>

volatile unsigned seq;
volatile int x, y;

static void *writer(void *arg) {
    (void)arg;
    seq = seq + 1;
    x = 1;
    y = 1;
    seq = seq + 1;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    int a, b;
    unsigned s0, s1;
    do {
        s0 = seq;
        a = x;
        b = y;
        s1 = seq;
    } while (s0 != s1); /* bug: s0 odd is not rejected */
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
