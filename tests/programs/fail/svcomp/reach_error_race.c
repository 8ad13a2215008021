// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=16
// SV-COMP style (after fib_bench): two threads update i and j from each other
// without synchronisation. Run one after the other they leave i + j == 10;
// when the updates interleave, one works on a stale value, the sum ends
// lower and the check reaches reach_error().

extern void abort(void);
extern void reach_error(void);

#include <pthread.h>

void __VERIFIER_assert(int cond) {
    if (!(cond)) {
    ERROR: { reach_error(); abort(); }
    }
}

int i = 1, j = 1;

#define NUM 2

void *t1(void *arg) {
    for (int k = 0; k < NUM; k++)
        i += j;
    return 0;
}

void *t2(void *arg) {
    for (int k = 0; k < NUM; k++)
        j += i;
    return 0;
}

int main(int argc, char **argv) {
    pthread_t id1, id2;
    pthread_create(&id1, 0, t1, 0);
    pthread_create(&id2, 0, t2, 0);
    pthread_join(id1, 0);
    pthread_join(id2, 0);
    __VERIFIER_assert(i + j >= 10);
    return 0;
}
