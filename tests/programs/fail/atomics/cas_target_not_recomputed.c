// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// Two threads spend from one atomic balance with a compare-and-swap loop,
// but compute the new balance once, before the loop: when the swap fails
// because the other thread spent first, the retry stores the stale target
// and the other thread's spending is lost. Each thread returns whether it
// spent, through pthread_join.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

static atomic_int balance = 100;

static void *spend(void *arg) {
    int amount = *(int *)arg;
    int seen = atomic_load(&balance);
    int target = seen - amount;
    while (!atomic_compare_exchange_weak(&balance, &seen, target)) {
        if (seen < amount)
            return (void *)0;
        /* bug: `target` should be seen - amount again */
    }
    return (void *)1;
}

int main(void) {
    pthread_t a, b;
    int first = 30, second = 50;
    void *spent_a, *spent_b;
    pthread_create(&a, 0, spend, &first);
    pthread_create(&b, 0, spend, &second);
    pthread_join(a, &spent_a);
    pthread_join(b, &spent_b);
    int spent = (spent_a ? first : 0) + (spent_b ? second : 0);
    int left = atomic_load(&balance);
    assert(left == 100 - spent);
    return 0;
}
