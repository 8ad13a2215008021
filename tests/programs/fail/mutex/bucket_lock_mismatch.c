// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=33
// Counts are guarded per bucket, but add() locks the bucket of key % 4 and
// updates the count of key / 4 % 4: keys 1 and 2 update count[0] under two
// different locks.
#include <pthread.h>
#include <assert.h>

#define BUCKETS 4
static pthread_mutex_t locks[BUCKETS] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                         PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static int count[BUCKETS];

static void add(int key) {
    pthread_mutex_lock(&locks[key % BUCKETS]);
    count[key / BUCKETS % BUCKETS]++;          /* bug: another bucket's lock */
    pthread_mutex_unlock(&locks[key % BUCKETS]);
}

static void *worker(void *arg) {
    add(*(int *)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int k1 = 1, k2 = 2;     /* locks 1 and 2, both count[0] */
    pthread_create(&a, 0, worker, &k1);
    pthread_create(&b, 0, worker, &k2);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(count[0] == 2);
    return 0;
}
