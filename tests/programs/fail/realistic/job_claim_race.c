// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=40
// A work queue whose workers read the next job under the lock, release
// it, and claim the job under the lock again: two workers can read the
// same `next_job`, and one writes back a stale claim, so jobs are done
// twice. On the failing run's paths every job is done twice by someone,
// so only another path (a worker that sees the queue empty) avoids it.
#include <pthread.h>
#include <assert.h>

#define JOBS 6
static int done[JOBS];
static int next_job;
static int finished;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&m);
        int j = next_job;
        pthread_mutex_unlock(&m);
        if (j >= JOBS) break;
        pthread_mutex_lock(&m);
        next_job = j + 1;              /* bug: claim is not atomic with the read */
        pthread_mutex_unlock(&m);
        done[j] += 1;
        pthread_mutex_lock(&m);
        finished++;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    for (int j = 0; j < JOBS; j++) assert(done[j] == 1);
    return 0;
}
