// causa: expect=no-bug
// causa: check=verified
// The worker is detached, so main cannot join it; instead the worker posts a
// semaphore after publishing its result and main waits on it before reading
// the result and returning.

#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

sem_t finished;
int result = 0;

void *worker(void *arg) {
    int n = *(int *)arg;
    int acc = 0;
    for (int i = 1; i <= n; i++)
        acc += i;
    result = acc;
    sem_post(&finished);
    return NULL;
}

int main(void) {
    static int n = 4;
    pthread_t t;
    sem_init(&finished, 0, 0);
    pthread_create(&t, NULL, worker, &n);
    pthread_detach(t);
    sem_wait(&finished);
    assert(result == 10);
    printf("result=%d\n", result);
    return 0;
}
