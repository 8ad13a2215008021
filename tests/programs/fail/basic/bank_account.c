// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=53
// deposit() and withdraw() read the balance, compute, and write it back with
// no lock. A withdrawal interleaved with a deposit overwrites it, so the final
// balance differs from 100 + 2*10 - 2*20 = 80.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

struct account {
    int balance;
};

struct account acct = { 100 };

static void deposit(struct account *a, int amount) {
    int b = a->balance;
    a->balance = b + amount;
}

static int withdraw(struct account *a, int amount) {
    int b = a->balance;
    if (b < amount)
        return 0;
    a->balance = b - amount;
    return 1;
}

void *depositor(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++)
        deposit(&acct, 10);
    return NULL;
}

void *withdrawer(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++)
        if (!withdraw(&acct, 20))
            printf("insufficient funds\n");
    return NULL;
}

int main(void) {
    pthread_t d, w;
    pthread_create(&d, NULL, depositor, NULL);
    pthread_create(&w, NULL, withdrawer, NULL);
    pthread_join(d, NULL);
    pthread_join(w, NULL);
    printf("balance=%d\n", acct.balance);
    assert(acct.balance == 80);
    return 0;
}
