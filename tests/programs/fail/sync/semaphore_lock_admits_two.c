// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// A semaphore used as the lock of an account, but initialised to 2: both
// withdrawals get in at once and one update of the balance is lost. The
// explanation names the semaphore's count as what lets them in together.
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

static sem_t guard;
static int balance = 100;

static void *withdraw(void *arg) {
    int amount = *(int *)arg;
    sem_wait(&guard);
    int b = balance;
    balance = b - amount;
    sem_post(&guard);
    return 0;
}

int main(void) {
    sem_init(&guard, 0, 2);            /* bug: lets two threads in */
    pthread_t a, b;
    int x = 10, y = 20;
    pthread_create(&a, 0, withdraw, &x);
    pthread_create(&b, 0, withdraw, &y);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(balance == 70);
    return 0;
}
