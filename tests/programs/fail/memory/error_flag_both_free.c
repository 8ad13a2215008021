// causa: expect=bug:memory-error
// causa: check=bug
// A worker that fails sets `failed` and frees the request buffer; main,
// seeing `failed`, frees it too. Whichever frees second frees it twice,
// whenever main sees the flag. The summary told only the branch main takes
// the other way in the alternate (it reads `failed` before the worker
// sets it); it now says that both threads free the block.
#include <pthread.h>
#include <stdlib.h>

char *buf;
int failed = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    failed = 1;
    pthread_mutex_unlock(&m);
    free(buf);
    return 0;
}

int main(void) {
    buf = malloc(16);
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    int f = failed;
    pthread_mutex_unlock(&m);
    if (f)
        free(buf);
    pthread_join(t, 0);
    return 0;
}
