// A failure long after the start: THREADS workers each do LOOPS locked
// updates of a shared histogram (many shared accesses, all correct), then
// one unlocked read-modify-write of a shared total. main checks the total:
// a lost update fails it. The failure needs one preemption, late in a long
// trace (about 4·THREADS·LOOPS shared accesses). Used by bench/reproduce.sh
// to show how reproduction time grows with the trace.
#include <assert.h>
#include <pthread.h>

#ifndef LOOPS
#define LOOPS 100
#endif
#define THREADS 3
#define BINS 8

int hist[BINS];
int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    int id = *(int *)arg;
    for (int i = 0; i < LOOPS; i++) {
        pthread_mutex_lock(&m);
        hist[(i * 3 + id) % BINS] += 1;
        pthread_mutex_unlock(&m);
    }
    int t = total; /* BUG: not under the lock */
    total = t + 1;
    return 0;
}

int main(void) {
    pthread_t th[THREADS];
    int ids[THREADS];
    for (int t = 0; t < THREADS; t++) {
        ids[t] = t;
        pthread_create(&th[t], 0, worker, &ids[t]);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], 0);
#ifdef CHECK_HIST
    /* (With -DCHECK_HIST the histogram is checked too: its locked
       updates are no longer incidental to the failure.) */
    int sum = 0;
    for (int b = 0; b < BINS; b++)
        sum += hist[b];
    assert(sum == THREADS * LOOPS);
#endif
    assert(total == THREADS);
    return 0;
}
