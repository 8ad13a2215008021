// causa: expect=no-bug
// causa: check=verified
// The fixed version of the ABBA transfer: both directions take the two
// account locks in a global order (lower id first), so no wait-for
// cycle can form, and the money is conserved.

#include <assert.h>
#include <pthread.h>

struct account {
    int id;
    pthread_mutex_t lock;
    int balance;
};

struct account checking = { 1, PTHREAD_MUTEX_INITIALIZER, 100 };
struct account savings = { 2, PTHREAD_MUTEX_INITIALIZER, 100 };

static void transfer(struct account *from, struct account *to, int amount) {
    struct account *first = from->id < to->id ? from : to;
    struct account *second = first == from ? to : from;
    pthread_mutex_lock(&first->lock);
    pthread_mutex_lock(&second->lock);
    from->balance -= amount;
    to->balance += amount;
    pthread_mutex_unlock(&second->lock);
    pthread_mutex_unlock(&first->lock);
}

void *to_savings(void *arg) {
    (void)arg;
    transfer(&checking, &savings, 10);
    return 0;
}

void *to_checking(void *arg) {
    (void)arg;
    transfer(&savings, &checking, 20);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, to_savings, 0);
    pthread_create(&b, 0, to_checking, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(checking.balance == 110);
    assert(savings.balance == 90);
    return 0;
}
