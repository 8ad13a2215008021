// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=27
// A 64-bit tick count kept as two 32-bit words (for a platform without
// 64-bit atomic stores). On the carry the ticker clears the low word and
// then bumps the high one; a reader that reads high then low without a
// lock can pair the old high word with the cleared low one and see time
// go backwards.
#include <pthread.h>
#include <stdint.h>
#include <assert.h>

static volatile uint32_t hi, lo = 0xffffffff;

static void *ticker(void *arg) {
    (void)arg;
    lo = 0;
    hi = hi + 1;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    uint32_t h = hi;
    uint32_t l = lo;
    uint64_t t = ((uint64_t)h << 32) | l;
    assert(t >= 0xffffffffu);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, ticker, 0);
    pthread_create(&t2, 0, reader, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
