// causa: expect=no-bug
// causa: check=verified
// causa: stdout=total 9, main's own 10 and 1
// Thread-local variables (`__thread`): each thread counts in its own
// instance, starting from the initial value, and adds its count to a
// shared total under a lock. A helper works on its caller's instance
// through a pointer. Nothing thread-local is shared, so no interleaving
// changes the total; main's own instances keep their values.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static __thread int local_count;
static __thread int slots[3] = {10, 20, 30};
static int total;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void bump(int *c) { *c += 1; }

static void *worker(void *arg) {
    int n = *(int *)arg;
    for (int i = 0; i < n; i++)
        bump(&local_count);
    slots[2] += n;
    assert(slots[2] == 30 + n);
    pthread_mutex_lock(&m);
    total += local_count;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    static int counts[3] = {2, 3, 4};
    pthread_t t[3];
    local_count = 1;
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, &counts[i]);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    assert(total == 9);
    printf("total %d, main's own %d and %d\n", total, slots[0], local_count);
    return 0;
}
