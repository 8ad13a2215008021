// A bank-account lost update checked long after the race: deposit's read
// and write of balance are not atomic; afterwards each teller does WORK
// locked operations on another counter, main joins them and does WORK of
// its own before the check. WORK scales the failing schedule (about 12
// events per unit of WORK) while the explanation stays the same.
#include <assert.h>
#include <pthread.h>

#ifndef WORK
#define WORK 40
#endif

int balance = 100, ops = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void work(void) {
    for (int i = 0; i < WORK; i++) {
        pthread_mutex_lock(&m);
        ops++;
        pthread_mutex_unlock(&m);
    }
}

void *deposit(void *a) {
    int b = balance;
    balance = b + (int)(long)a;
    work();
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, deposit, (void *)10);
    pthread_create(&t2, 0, deposit, (void *)20);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    work();
    assert(balance == 130);
    return 0;
}
