// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=22,43
// Workers wait for jobs or shutdown; main broadcasts the jobs, then sets
// the shutdown flag without the lock and without a broadcast: a worker
// that found no job and no shutdown waits for good.
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int jobs;
static bool shutting_down;

static void *worker(void *arg) {
    (void)arg;
    int done = 0;
    for (;;) {
        pthread_mutex_lock(&m);
        while (jobs == 0 && !shutting_down)
            pthread_cond_wait(&cv, &m);
        if (jobs == 0 && shutting_down) {
            pthread_mutex_unlock(&m);
            break;
        }
        jobs--;
        pthread_mutex_unlock(&m);
        done++;
    }
    return (void *)(long)done;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_mutex_lock(&m);
    jobs = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
    shutting_down = true;            /* bug: set without the lock and without a wake-up */
    pthread_join(a, 0);
    pthread_join(b, 0);
    puts("done");
    return 0;
}
