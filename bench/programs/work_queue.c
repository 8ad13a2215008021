// A work queue of TASKS tasks taken under a mutex by WORKERS workers, each
// adding its task to a checksum under the mutex and then counting it in
// `processed` without it: a lost update main's final check catches. Each
// take reads `queue[head]` at an index read from shared memory (a symbolic
// address whose candidates are every slot). Written as a new user would;
// used by bench/explain.sh (docs/performance.md, sixty-seventh session:
// `causa test` finds the bug in its first run, `causa check` had no verdict
// after 120 s).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#ifndef TASKS
#define TASKS 40
#endif
#define WORKERS 4

int queue[TASKS];
int head = 0;
int processed = 0;
long checksum = 0;
pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;

int take(void) {
    int t = -1;
    pthread_mutex_lock(&qm);
    if (head < TASKS)
        t = queue[head++];
    pthread_mutex_unlock(&qm);
    return t;
}

void *worker(void *arg) {
    (void)arg;
    for (;;) {
        int t = take();
        if (t < 0)
            break;
        pthread_mutex_lock(&qm);
        checksum += t;
        pthread_mutex_unlock(&qm);
        processed++;
    }
    return NULL;
}

int main(void) {
    pthread_t w[WORKERS];
    for (int i = 0; i < TASKS; i++)
        queue[i] = i + 1;
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&w[i], NULL, worker, NULL);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(w[i], NULL);
    printf("processed %d checksum %ld\n", processed, checksum);
    assert(processed == TASKS);
    return 0;
}
