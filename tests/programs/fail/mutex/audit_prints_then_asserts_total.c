// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=35
// Two movers transfer between two accounts holding `bank`; an auditor
// reads both balances without it, prints the total when it is off, then
// asserts it. The print's branch tests the same sum as the assertion: on
// the failing run's paths the assertion fails in every order, but the
// cause is the auditor's reads between a transfer's two writes.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

long checking = 500, savings = 500;
pthread_mutex_t bank = PTHREAD_MUTEX_INITIALIZER;

void *mover(void *arg) {
    long amount = (long)arg;
    for (int i = 0; i < 6; i++) {
        pthread_mutex_lock(&bank);
        checking -= amount;
        savings += amount;
        pthread_mutex_unlock(&bank);
    }
    return NULL;
}

void *auditor(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        long c = checking; /* BUG: without `bank` */
        long s = savings;
        if (c + s != 1000)
            printf("audit %d: total %ld\n", i, c + s);
        assert(c + s == 1000);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b, au;
    pthread_create(&a, NULL, mover, (void *)10);
    pthread_create(&b, NULL, mover, (void *)-7);
    pthread_create(&au, NULL, auditor, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(au, NULL);
    printf("checking %ld savings %ld\n", checking, savings);
    return 0;
}
