// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: input=1
// SV-COMP style: `slots` comes from the input. The threads check for a free
// slot outside the lock, so with exactly one slot both can reserve it and the
// count goes negative. With 0 or with 2 or more slots the program is correct.

extern void abort(void);
#include <assert.h>
void reach_error() { assert(0); }
extern int __VERIFIER_nondet_int(void);
void assume_abort_if_not(int cond) {
    if (!cond) { abort(); }
}

#include <pthread.h>

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int slots;

void *reserve(void *arg) {
    if (slots > 0) {
        pthread_mutex_lock(&lock);
        slots = slots - 1;
        pthread_mutex_unlock(&lock);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    slots = __VERIFIER_nondet_int();
    assume_abort_if_not(slots >= 0 && slots <= 8);
    pthread_create(&a, 0, reserve, 0);
    pthread_create(&b, 0, reserve, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    if (slots < 0) {
        reach_error();
    }
    return 0;
}
