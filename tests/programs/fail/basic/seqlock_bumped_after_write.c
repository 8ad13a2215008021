// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A sequence lock whose writer bumps the counter by two only after writing
// the pair: the counter is never odd, so a reader that sees the same even
// count before and after its two reads may still have read a pair half
// written (the new `a` with the old `b`). The counter should be odd while
// the writer writes.
#include <pthread.h>
#include <assert.h>
#include <stdio.h>

static volatile unsigned seq;
static volatile int a, b;

static void *writer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 3; i++) {
        a = i;
        b = i;
        seq += 2; /* bug: seq++ before the writes and after them */
    }
    return NULL;
}

static void *reader(void *arg) {
    (void)arg;
    for (int tries = 0; tries < 3; tries++) {
        unsigned s1 = seq;
        int x = a, y = b;
        if (s1 == seq && (s1 & 1) == 0) {
            assert(x == y);
            printf("read %d %d\n", x, y);
            return NULL;
        }
    }
    return NULL;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    return 0;
}
