// causa: expect=no-bug
// causa: check=verified
// Workers wait at a start gate until main opens it with a broadcast. The
// flag is set under the mutex and checked in a `while` loop, so a worker
// that arrives late does not wait, and none can miss the wakeup.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define N 3

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t gate = PTHREAD_COND_INITIALIZER;
int open_gate = 0;
int started = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!open_gate)
        pthread_cond_wait(&gate, &m);
    started++;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    pthread_mutex_lock(&m);
    open_gate = 1;
    pthread_cond_broadcast(&gate);
    pthread_mutex_unlock(&m);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    assert(started == N);
    return 0;
}
