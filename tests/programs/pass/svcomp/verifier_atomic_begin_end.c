// causa: expect=no-bug
// causa: check=verified
// SV-COMP style: the transfer between two variables is bracketed by
// __VERIFIER_atomic_begin/end, so the observer never sees the money in
// flight and x + y stays 10.

extern void abort(void);
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

#include <pthread.h>

int x = 10, y = 0;

void *mover(void *arg) {
    for (int i = 0; i < 2; i++) {
        __VERIFIER_atomic_begin();
        x = x - 2;
        y = y + 2;
        __VERIFIER_atomic_end();
    }
    return 0;
}

void *observer(void *arg) {
    __VERIFIER_atomic_begin();
    int sum = x + y;
    __VERIFIER_atomic_end();
    if (sum != 10) {
        reach_error();
        abort();
    }
    return 0;
}

int main(void) {
    pthread_t m, o;
    pthread_create(&m, 0, mover, 0);
    pthread_create(&o, 0, observer, 0);
    pthread_join(m, 0);
    pthread_join(o, 0);
    if (x != 6 || y != 4) {
        reach_error();
        abort();
    }
    return 0;
}
