// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=bug:assertion-violation
// A PSO-only variant of CLAP's Fig. 2 (written for causa): T1 reads x, writes
// it, and if it sees y still 0 writes y = a + 1 and then x = a + 2 (its lines
// 4 and 5). T2 reads x, then y. Seeing x = 2 (line 5's store) with y = 0
// needs line 5's store to become visible before line 4's: only PSO, whose
// store buffers are per address, reorders them.

#include <assert.h>
#include <pthread.h>

int x, y;

void *t1(void *arg) {
    int a = x;
    x = 1;
    if (y == 0) {
        y = a + 1;
        x = a + 2;
    }
    return 0;
}

void *t2(void *arg) {
    int c = x;
    int d = y;
    assert(!(c == 2 && d == 0));
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, t1, 0);
    pthread_create(&q, 0, t2, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
