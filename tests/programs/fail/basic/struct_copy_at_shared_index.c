// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=35
// A writer claims a ring slot by bumping `tail` before it fills the slot
// in; a reader copies the newest message out whole (`struct msg m =
// ring[tail - 1]`, one 8-byte copy at an index read from shared memory)
// and finds it empty. (Explaining it said "memcpy through an address
// computed from shared data" was unsupported.)
#include <assert.h>
#include <pthread.h>
#include <sched.h>

struct msg {
    int seq;
    int len;
};

static struct msg ring[4];
static int tail;

static void *writer(void *unused) {
    (void)unused;
    int i = tail;
    tail = i + 1; /* bug: the slot is published before it is filled */
    ring[i].seq = i + 1;
    ring[i].len = 8;
    return 0;
}

static void *reader(void *unused) {
    (void)unused;
    while (tail == 0)
        sched_yield();
    struct msg m = ring[tail - 1];
    assert(m.len == 8);
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
