// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=26
// The reader takes the low word of a 64-bit sequence number before it
// checks that the number was published, so it can read the old word and
// then see the flag set. (Values of 2^32 and more in an integer are shown
// as numbers, not as addresses.)
#include <pthread.h>
#include <stdint.h>
#include <assert.h>

static uint64_t seqno;
static int published;

static void *writer(void *arg) {
    (void)arg;
    seqno = 0x100000001ull;
    published = 1;
    return 0;
}

static void *reader(void *arg) {
    (void)arg;
    uint32_t low = *(volatile uint32_t *)&seqno;
    if (published)
        assert(low == 1);
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
