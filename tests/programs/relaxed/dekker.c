// causa: expect=no-bug
// causa: check=verified
// causa: tso=bug:assertion-violation
// causa: pso=bug:assertion-violation
// Dekker's mutual exclusion without fences. Correct under SC (the busy waits
// are parked until the other thread writes); under TSO each thread's
// `want = 1` can sit in its store buffer while it reads the other's flag as
// 0, and both enter the critical section.

#include <assert.h>
#include <pthread.h>

int want0, want1, turn, inside;

void *first(void *arg) {
    want0 = 1;
    while (want1) {
        if (turn != 0) {
            want0 = 0;
            while (turn != 0) {
            }
            want0 = 1;
        }
    }
    inside++;
    assert(inside == 1);
    inside--;
    turn = 1;
    want0 = 0;
    return 0;
}

void *second(void *arg) {
    want1 = 1;
    while (want0) {
        if (turn != 1) {
            want1 = 0;
            while (turn != 1) {
            }
            want1 = 1;
        }
    }
    inside++;
    assert(inside == 1);
    inside--;
    turn = 0;
    want1 = 0;
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, first, 0);
    pthread_create(&q, 0, second, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
