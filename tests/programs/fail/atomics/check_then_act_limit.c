// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=26
// A connection limiter: each client checks that fewer than MAX_ACTIVE are
// being served, then counts itself in with an atomic increment. Each step
// is atomic, the two together are not: two clients can both see one slot
// free, and both take it. The fix is one atomic step (a compare-and-swap
// loop), not an order of the two.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define MAX_ACTIVE 2

static atomic_int active;

static void serve(int id) {
    printf("serving %d\n", id);
}

static void *client(void *arg) {
    int id = (int)(long)arg;
    if (atomic_load(&active) < MAX_ACTIVE) {
        int now = atomic_fetch_add(&active, 1) + 1;
        assert(now <= MAX_ACTIVE);
        serve(id);
        atomic_fetch_sub(&active, 1);
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], 0, client, (void *)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
