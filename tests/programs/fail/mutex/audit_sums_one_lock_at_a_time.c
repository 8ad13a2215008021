// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=39
// Transfers move money between accounts under per-account locks (taken in
// address order); an auditor sums the accounts one lock at a time and can
// see a transfer half done. (The explanation's tables mark the events
// of a thread they leave out between two they show: the auditor's lock of
// one account and its unlock of the next.)
#include <assert.h>
#include <pthread.h>

#define N 3
struct account { pthread_mutex_t lock; int balance; } acc[N];

void transfer(int from, int to, int amount) {
    struct account *a = &acc[from < to ? from : to], *b = &acc[from < to ? to : from];
    pthread_mutex_lock(&a->lock);
    pthread_mutex_lock(&b->lock);
    acc[from].balance -= amount;
    acc[to].balance += amount;
    pthread_mutex_unlock(&b->lock);
    pthread_mutex_unlock(&a->lock);
}

void *teller(void *arg) {
    int k = *(int *)arg;
    for (int i = 0; i < 2; i++)
        transfer(k, (k + 1) % N, 5);
    return 0;
}

void *auditor(void *arg) {
    int sum = 0;
    for (int i = 0; i < N; i++) {
        pthread_mutex_lock(&acc[i].lock);
        sum += acc[i].balance;
        pthread_mutex_unlock(&acc[i].lock);
    }
    assert(sum == N * 100); /* BUG: not one consistent snapshot */
    return 0;
}

int main(void) {
    pthread_t t[2], a;
    int ids[2] = {0, 1};
    for (int i = 0; i < N; i++) {
        pthread_mutex_init(&acc[i].lock, 0);
        acc[i].balance = 100;
    }
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, teller, &ids[i]);
    pthread_create(&a, 0, auditor, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    pthread_join(a, 0);
    return 0;
}
