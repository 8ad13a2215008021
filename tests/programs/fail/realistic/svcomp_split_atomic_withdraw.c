// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: input=3,3,3
// causa: at-line=92
// causa: iterations=3000
// SV-COMP style task (expected verdict: false, unreach-call violated). The
// initial balance and two withdrawal amounts are nondeterministic inputs
// bounded with assume_abort_if_not. A depositor adds money through a
// __VERIFIER_atomic_ function; two withdrawers check the balance and take
// the money, but the check and the update are two separate atomic sections.
// Both withdrawers can pass the check before either takes its amount, and
// when the amounts together exceed the balance it goes negative: reach_error.

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_split_atomic_withdraw.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void assume_abort_if_not(int cond) {
    if (!cond) {
        abort();
    }
}

#include <pthread.h>

#define DEPOSITS 2

int balance;
int withdrawn;
int deposited;

struct request {
    int amount;
    int granted;
};

void __VERIFIER_atomic_deposit(int amount) {
    balance += amount;
    deposited += amount;
}

void *depositor(void *arg) {
    for (int i = 0; i < DEPOSITS; i++)
        __VERIFIER_atomic_deposit(1);
    return 0;
}

void *withdrawer(void *arg) {
    struct request *req = arg;
    int ok;
    __VERIFIER_atomic_begin();
    ok = balance >= req->amount;
    __VERIFIER_atomic_end();
    if (ok) {
        /* BUG: the balance may have changed since the check above */
        __VERIFIER_atomic_begin();
        balance -= req->amount;
        withdrawn += req->amount;
        __VERIFIER_atomic_end();
        req->granted = 1;
    }
    return 0;
}

int main() {
    int initial = __VERIFIER_nondet_int();
    struct request r1, r2;
    r1.amount = __VERIFIER_nondet_int();
    r2.amount = __VERIFIER_nondet_int();
    r1.granted = r2.granted = 0;
    assume_abort_if_not(initial >= 0 && initial <= 10);
    assume_abort_if_not(r1.amount > 0 && r1.amount <= initial);
    assume_abort_if_not(r2.amount > 0 && r2.amount <= initial);
    balance = initial;

    pthread_t d, w1, w2;
    pthread_create(&d, 0, depositor, 0);
    pthread_create(&w1, 0, withdrawer, &r1);
    pthread_create(&w2, 0, withdrawer, &r2);
    pthread_join(d, 0);
    pthread_join(w1, 0);
    pthread_join(w2, 0);

    if (balance != initial + deposited - withdrawn)
        reach_error();
    if (withdrawn != r1.granted * r1.amount + r2.granted * r2.amount)
        reach_error();
    if (balance < 0)
        reach_error();
    return 0;
}
