// causa: expect=bug:deadlock
// causa: check=bug
// The waiter copies `ready` into a local before it takes the mutex, and
// decides to wait on that copy. When the setter sets `ready` and signals
// between the copy and the wait, the waiter waits for a signal that has
// already been sent and sleeps forever. Testing `ready` under the mutex,
// in a loop around the wait, avoids the deadlock.

#include <pthread.h>

int ready = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

void *waiter(void *arg) {
    (void)arg;
    int seen = ready;
    pthread_mutex_lock(&m);
    if (!seen)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return NULL;
}

void *setter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, waiter, NULL);
    pthread_create(&b, NULL, setter, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
