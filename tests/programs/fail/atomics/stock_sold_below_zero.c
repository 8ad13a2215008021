// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// Clerks take orders (an item number) from a shared list and sell one of
// the item when its stock is positive: the test (`atomic_load`) and the
// decrement (`atomic_fetch_sub(&stock[item], 1)`, at an address computed
// from the order read from shared memory) are two steps, so two clerks
// can both sell the last unit. (Explaining it said "an atomic
// read-modify-write through an address computed from shared data" was
// unsupported.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int stock[3] = {1, 2, 1};
int orders[4] = {0, 2, 0, 1};
atomic_int next_order;

void *clerk(void *arg) {
    for (;;) {
        int o = atomic_fetch_add(&next_order, 1);
        if (o >= 4) break;
        int item = orders[o];
        if (atomic_load(&stock[item]) > 0)
            atomic_fetch_sub(&stock[item], 1);   /* BUG: test, then act */
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, clerk, 0);
    pthread_create(&b, 0, clerk, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    for (int i = 0; i < 3; i++)
        assert(stock[i] >= 0);
    return 0;
}
