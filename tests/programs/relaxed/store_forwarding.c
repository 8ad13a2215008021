// causa: expect=no-bug
// causa: check=verified
// causa: tso=bug:assertion-violation
// causa: pso=bug:assertion-violation
// Store-to-load forwarding (the x86-TSO litmus test n6-like `SB+rfi`): each
// thread writes its flag, reads it back, then reads the other's. Under TSO a
// thread reads its own store from its store buffer before any other thread
// can see it, so both can read their own 1 and the other's 0. Under SC (and
// with a thread that had to wait for its own store to drain before reading
// it back) one of them sees the other's 1.

#include <assert.h>
#include <pthread.h>

int x, y;
int a1, a2, b1, b2;

void *left(void *arg) {
    x = 1;
    a1 = x;
    a2 = y;
    return 0;
}

void *right(void *arg) {
    y = 1;
    b1 = y;
    b2 = x;
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, left, 0);
    pthread_create(&q, 0, right, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    assert(!(a1 == 1 && a2 == 0 && b1 == 1 && b2 == 0));
    return 0;
}
