// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=46
// Workers take keys from a shared job list and count them in a table with
// one lock per bucket (the bucket's lock at an address computed from the
// key read from shared memory); the total is kept without a lock.
// (Explaining it said "pthread_mutex_lock through an address computed
// from shared data" was unsupported.)
#include <assert.h>
#include <pthread.h>

#define BUCKETS 4
struct bucket { pthread_mutex_t m; int hits; };
struct bucket table[BUCKETS];
int jobs[4] = {3, 6, 1, 5};
int next_job;
pthread_mutex_t job_m = PTHREAD_MUTEX_INITIALIZER;
int total;

void *worker(void *arg) {
    for (;;) {
        pthread_mutex_lock(&job_m);
        int j = next_job < 4 ? next_job++ : -1;
        pthread_mutex_unlock(&job_m);
        if (j < 0) break;
        int key = jobs[j];
        struct bucket *b = &table[key % BUCKETS];
        pthread_mutex_lock(&b->m);
        b->hits++;
        pthread_mutex_unlock(&b->m);
        total = total + 1;      /* BUG: not under any lock */
    }
    return 0;
}

int main(void) {
    for (int i = 0; i < BUCKETS; i++) pthread_mutex_init(&table[i].m, 0);
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int hits = 0;
    for (int i = 0; i < BUCKETS; i++) hits += table[i].hits;
    assert(hits == 4);
    assert(total == 4);
    return 0;
}
