// causa: expect=no-bug
// causa: check=unknown
// causa: input=0
// The divisor comes from the input and is constrained by assume_abort_if_not.
// With the given input 0 the assumption fails and the execution is
// infeasible; that abort() is not a bug, and the division is never reached.
// `causa check` says unknown: with the fixed input nothing can be checked.

extern void abort(void);
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) {
    if (!cond) { abort(); }
}

#include <pthread.h>

int divisor;
int shares[2];

void *split(void *arg) {
    int id = (int)(long)arg;
    shares[id] = 100 / divisor;
    return 0;
}

int main(void) {
    pthread_t a, b;
    divisor = __VERIFIER_nondet_int();
    assume_abort_if_not(divisor != 0);
    pthread_create(&a, 0, split, (void *)0L);
    pthread_create(&b, 0, split, (void *)1L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
