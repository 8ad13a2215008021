// causa: expect=no-bug
// causa: check=verified
// causa: tso=bug:assertion-violation
// causa: pso=bug:assertion-violation
// Peterson's lock without fences: correct under SC, broken by store buffers
// (each thread's `flag = 1` and `turn = other` can still be buffered when it
// reads the other's flag).

#include <assert.h>
#include <pthread.h>

int flag0, flag1, turn, inside;

void *first(void *arg) {
    flag0 = 1;
    turn = 1;
    while (flag1 && turn == 1) {
    }
    inside++;
    assert(inside == 1);
    inside--;
    flag0 = 0;
    return 0;
}

void *second(void *arg) {
    flag1 = 1;
    turn = 0;
    while (flag0 && turn == 0) {
    }
    inside++;
    assert(inside == 1);
    inside--;
    flag1 = 0;
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
