// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=50
// Three workers each serve a batch of requests, counting responses per
// status class in a shared table under its lock (`by_class[c] += 1`), then
// add the batch's bytes to a shared total without the lock. main checks
// both after joining them: the class counts always add up, the bytes lose
// an update when two workers' read-add-write of `bytes_sent` interleave.
// (The counts' critical sections are many; their order does not matter.)
#include <assert.h>
#include <pthread.h>

#define WORKERS 3
#define REQUESTS 12

static int by_class[5];
static long bytes_sent;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    int id = *(int *)arg;
    long batch = 0;
    for (int r = 0; r < REQUESTS; r++) {
        int status_class = (r * 7 + id) % 5;
        pthread_mutex_lock(&stats_lock);
        by_class[status_class] += 1;
        pthread_mutex_unlock(&stats_lock);
        batch += 100 + status_class;
    }
    long seen = bytes_sent; /* bug: not under stats_lock */
    bytes_sent = seen + batch;
    return 0;
}

int main(void) {
    pthread_t th[WORKERS];
    int ids[WORKERS];
    long expected = 0;
    for (int t = 0; t < WORKERS; t++) {
        ids[t] = t;
        pthread_create(&th[t], 0, worker, &ids[t]);
        for (int r = 0; r < REQUESTS; r++)
            expected += 100 + (r * 7 + t) % 5;
    }
    for (int t = 0; t < WORKERS; t++)
        pthread_join(th[t], 0);
    int counted = 0;
    for (int c = 0; c < 5; c++)
        counted += by_class[c];
    assert(counted == WORKERS * REQUESTS && bytes_sent == expected);
    return 0;
}
