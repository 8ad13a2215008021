// causa: expect=no-bug
// causa: check=verified
// Three threads increment a counter, each increment under the same mutex.
// Every read-modify-write is inside the critical section, so no update is
// lost and the total is always 6.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define THREADS 3
#define ROUNDS 2

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void) {
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    assert(counter == THREADS * ROUNDS);
    return 0;
}
