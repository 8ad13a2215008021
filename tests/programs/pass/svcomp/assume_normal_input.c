// causa: expect=no-bug
// causa: check=verified
// causa: input=3
// Same shape as assume_prunes_input.c, with an input the assumption accepts.
// The bound is checked before the threads start and each thread writes its
// own slots, so the final check cannot fail.

extern void abort(void);
#include <assert.h>
void reach_error() { assert(0); }
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) {
    if (!cond) { abort(); }
}

#include <pthread.h>

#define MAX 4

int n;
int a[2][MAX];

void *fill(void *arg) {
    int id = (int)(long)arg;
    for (int i = 0; i < n; i++)
        a[id][i] = id + i;
    return 0;
}

int main(void) {
    pthread_t t0, t1;
    n = __VERIFIER_nondet_int();
    assume_abort_if_not(n >= 1 && n <= MAX);
    pthread_create(&t0, 0, fill, (void *)0L);
    pthread_create(&t1, 0, fill, (void *)1L);
    pthread_join(t0, 0);
    pthread_join(t1, 0);
    if (a[1][n - 1] != n) {
        reach_error();
    }
    return 0;
}
