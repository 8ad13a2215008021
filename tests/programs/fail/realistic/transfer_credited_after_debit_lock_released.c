// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=34
// A transfer debits the source under its account's lock, releases it, and
// only then credits the destination under the other's; an auditor that
// holds both locks while it sums the balances can run in between and see
// the money in flight. The auditor's locks are right: the summary said
// "one lock held over the two reads", which it already has; the transfer
// must hold the source's lock until the credit is made.
#include <assert.h>
#include <pthread.h>

int balance[2] = {100, 0};
pthread_mutex_t account[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

void *transfer(void *arg) {
    int amount = *(int *)arg;
    pthread_mutex_lock(&account[0]);
    balance[0] -= amount;
    pthread_mutex_unlock(&account[0]);
    pthread_mutex_lock(&account[1]);
    balance[1] += amount;
    pthread_mutex_unlock(&account[1]);
    return 0;
}

void *audit(void *arg) {
    (void)arg;
    pthread_mutex_lock(&account[0]);
    pthread_mutex_lock(&account[1]);
    int total = balance[0] + balance[1];
    pthread_mutex_unlock(&account[1]);
    pthread_mutex_unlock(&account[0]);
    assert(total == 100);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int amount = 30;
    pthread_create(&a, 0, transfer, &amount);
    pthread_create(&b, 0, audit, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
