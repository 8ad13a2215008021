// causa: expect=no-bug
// causa: check=verified
// causa: tso=bug:assertion-violation
// causa: pso=bug:assertion-violation
// Store buffering (the SB litmus test; Huang's dissertation Fig. 3.5a): each
// thread writes its flag, then reads the other's. Under SC one of the reads
// sees 1; with store buffers both stores can still be buffered when the other
// thread reads, and both read 0.

#include <assert.h>
#include <pthread.h>

int x, y;
int a, b;

void *left(void *arg) {
    x = 1;
    a = y;
    return 0;
}

void *right(void *arg) {
    y = 1;
    b = x;
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, left, 0);
    pthread_create(&q, 0, right, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    assert(a == 1 || b == 1);
    return 0;
}
