// A bank account shared by two tellers. deposit() and withdraw() each read the
// balance, compute, and write it back without holding the lock, so one update
// can be lost. The audit at the end notices the money that vanished.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int balance = 100;
static pthread_mutex_t audit_lock = PTHREAD_MUTEX_INITIALIZER;
static int operations = 0;

static void deposit(int amount) {
    int b = balance;          // read
    balance = b + amount;     // write: a withdraw in between is lost
}

static void withdraw(int amount) {
    int b = balance;
    if (b >= amount)
        balance = b - amount;
}

static void *teller_a(void *arg) {
    (void)arg;
    deposit(50);
    pthread_mutex_lock(&audit_lock);
    operations++;
    pthread_mutex_unlock(&audit_lock);
    return NULL;
}

static void *teller_b(void *arg) {
    (void)arg;
    withdraw(30);
    pthread_mutex_lock(&audit_lock);
    operations++;
    pthread_mutex_unlock(&audit_lock);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, teller_a, NULL);
    pthread_create(&b, NULL, teller_b, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("balance after %d operations: %d\n", operations, balance);
    assert(balance == 120);
    return 0;
}
