// causa: expect=no-bug
// causa: check=verified
// SV-COMP convention: a function whose name starts with __VERIFIER_atomic_
// runs without interruption, so the read-modify-write inside it is atomic
// and no increment is lost.

extern void abort(void);
#include <assert.h>
void reach_error() { assert(0); }
void __VERIFIER_assert(int expression) { if (!expression) { ERROR: {reach_error();abort();}}; return; }

#include <pthread.h>

int counter = 0;

void __VERIFIER_atomic_inc(void) {
    int tmp = counter;
    counter = tmp + 1;
}

void *thr(void *arg) {
    __VERIFIER_atomic_inc();
    __VERIFIER_atomic_inc();
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, thr, 0);
    pthread_create(&t2, 0, thr, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    __VERIFIER_assert(counter == 4);
    return 0;
}
