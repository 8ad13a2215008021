// causa: expect=no-bug
// causa: check=verified
// Workers first try the lock; when it is busy they count the contention and
// fall back to a blocking lock. Either way the increment happens under the
// mutex, so the total is exact whatever trylock returns.

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;
int contended = 0;

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        int rc = pthread_mutex_trylock(&m);
        if (rc != 0) {
            assert(rc == EBUSY);
            pthread_mutex_lock(&m);
            contended++;
        }
        counter++;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(counter == 4);
    assert(contended >= 0 && contended <= 4);
    return 0;
}
