// causa: expect=bug:deadlock
// causa: check=bug
// The two transfer threads take the account locks in opposite orders. If each
// thread gets its first lock before the other asks for its second one, both
// block forever (and main blocks in pthread_join).

#include <pthread.h>
#include <stdio.h>

struct account {
    pthread_mutex_t lock;
    int balance;
};

struct account checking = { PTHREAD_MUTEX_INITIALIZER, 100 };
struct account savings = { PTHREAD_MUTEX_INITIALIZER, 100 };

static void transfer(struct account *from, struct account *to, int amount) {
    pthread_mutex_lock(&from->lock);
    pthread_mutex_lock(&to->lock);
    from->balance -= amount;
    to->balance += amount;
    pthread_mutex_unlock(&to->lock);
    pthread_mutex_unlock(&from->lock);
}

void *to_savings(void *arg) {
    (void)arg;
    transfer(&checking, &savings, 10);
    return NULL;
}

void *to_checking(void *arg) {
    (void)arg;
    transfer(&savings, &checking, 20);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, to_savings, NULL);
    pthread_create(&b, NULL, to_checking, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("checking=%d savings=%d\n", checking.balance, savings.balance);
    return 0;
}
