// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=49
// Two tellers move money between two accounts. Each locks the account it
// takes from and only tries the other; a teller whose try fails gives the
// transfer up. main expects both transfers to go through.
#include <assert.h>
#include <pthread.h>

struct account {
    pthread_mutex_t lock;
    int balance;
};

struct account savings = {PTHREAD_MUTEX_INITIALIZER, 100};
struct account checking = {PTHREAD_MUTEX_INITIALIZER, 100};
int given_up;

static void transfer(struct account *from, struct account *to, int amount) {
    pthread_mutex_lock(&from->lock);
    if (pthread_mutex_trylock(&to->lock) == 0) {
        from->balance -= amount;
        to->balance += amount;
        pthread_mutex_unlock(&to->lock);
    } else {
        __atomic_fetch_add(&given_up, 1, __ATOMIC_SEQ_CST);
    }
    pthread_mutex_unlock(&from->lock);
}

static void *teller1(void *arg) {
    (void)arg;
    transfer(&savings, &checking, 30);
    return 0;
}

static void *teller2(void *arg) {
    (void)arg;
    transfer(&checking, &savings, 20);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, teller1, 0);
    pthread_create(&b, 0, teller2, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(given_up == 0);
    assert(savings.balance == 90 && checking.balance == 110);
    return 0;
}
