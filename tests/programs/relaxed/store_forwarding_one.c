// causa: expect=no-bug
// causa: check=verified
// causa: tso=bug:assertion-violation
// causa: pso=bug:assertion-violation
// Store buffering where one thread reads its own store back first (small
// enough for the exhaustive DFS oracle to finish, so MCR's outcomes under
// TSO/PSO are compared with every interleaving and flush order). `left`
// reads its x = 1 from its store buffer (store-to-load forwarding), then y
// as 0, while `right` reads x as 0: both stores still buffered. Had the
// read of x waited for the store to become visible, right could not read 0
// after it.

#include <assert.h>
#include <pthread.h>

int x, y;
int a1, a2, b;

void *left(void *arg) {
    x = 1;
    a1 = x;
    a2 = y;
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
    assert(!(a1 == 1 && a2 == 0 && b == 0));
    return 0;
}
