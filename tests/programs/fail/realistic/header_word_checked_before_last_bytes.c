// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=30
// A packet header is a union of a 32-bit word and its four bytes. The
// filler stores the bytes one at a time and raises `ready` after the
// second; the checker, once it sees `ready`, compares the whole word with
// the magic value, whose last two bytes may not be there yet.
#include <pthread.h>
#include <stdint.h>
#include <assert.h>

union header { uint32_t word; unsigned char b[4]; };
struct packet { int len; union header h; };
static struct packet pkt;
static int ready;

static void *filler(void *arg) {
    (void)arg;
    pkt.h.b[0] = 0xca;
    pkt.h.b[1] = 0xfe;
    ready = 1;
    pkt.h.b[2] = 0xba;
    pkt.h.b[3] = 0xbe;
    return 0;
}

static void *checker(void *arg) {
    (void)arg;
    if (ready)
        assert(pkt.h.word == 0xbebafeca);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, filler, 0);
    pthread_create(&t2, 0, checker, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
