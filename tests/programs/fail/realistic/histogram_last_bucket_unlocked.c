// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=54
// Two workers count their data into a histogram of their own (a local
// array indexed by the data, which each finds from the id main stored
// before creating it) and merge it into the global one under a lock, but
// for the last bucket, which is merged without it: an update is lost and
// main's total is short. Symbolic execution needs each worker's id to
// index its own stack array: the id's one write comes before the worker
// is created, so it is pinned (it reported the access unsupported):
// worker 0's id is the value main's stack held when its address escaped,
// worker 1's the one write main made after that, before creating it.
#include <pthread.h>
#include <assert.h>
#include <string.h>

#define BUCKETS 4
static int global_hist[BUCKETS];
static pthread_mutex_t hm = PTHREAD_MUTEX_INITIALIZER;
static const int data[2][6] = {{0, 1, 1, 2, 3, 3}, {1, 1, 2, 2, 0, 3}};

static void *worker(void *arg) {
    int id = *(int *)arg;
    int local[BUCKETS];
    memset(local, 0, sizeof local);
    for (int i = 0; i < 6; i++)
        local[data[id][i]]++;
    for (int b = 0; b < BUCKETS; b++) {
        if (local[b] == 0)
            continue;
        if (b == 3) {               /* BUG: the last bucket is merged without the lock */
            global_hist[b] += local[b];
            continue;
        }
        pthread_mutex_lock(&hm);
        global_hist[b] += local[b];
        pthread_mutex_unlock(&hm);
    }
    return 0;
}

int main(void) {
    pthread_t t[2];
    int ids[2];
    for (int i = 0; i < 2; i++) {
        ids[i] = i;
        pthread_create(&t[i], 0, worker, &ids[i]);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    int total = 0;
    for (int b = 0; b < BUCKETS; b++)
        total += global_hist[b];
    assert(total == 12);
    return 0;
}
