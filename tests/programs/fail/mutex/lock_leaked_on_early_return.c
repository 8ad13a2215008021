// causa: expect=bug:deadlock
// causa: check=bug
// `spend` takes the lock and returns early when the budget is short,
// without unlocking: the client whose second call finds the budget spent
// ends holding the lock, and the other client's next call blocks forever.
// The explanation said to take "the locks in one order in every thread"
// (there is one lock); it now says the holder's thread ended without
// releasing it, and to unlock on every path out.
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int budget = 1;

static int spend(int amount) {
    pthread_mutex_lock(&m);
    if (budget < amount)
        return -1;              /* BUG: returns with m held */
    budget -= amount;
    pthread_mutex_unlock(&m);
    return 0;
}

static void *client(void *arg) {
    (void)arg;
    spend(1);
    spend(1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, client, 0);
    pthread_create(&b, 0, client, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
