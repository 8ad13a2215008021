// causa: expect=bug:invalid-pthread-use
// causa: check=bug
// causa: at-line=25
// causa: message=pthread_cond_wait's unlock
// The listener waits on the condition variable without taking its mutex
// first: pthread_cond_wait must be called with the mutex held.
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int ready;

static void *setter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    return 0;
}

static void *listener(void *arg) {
    (void)arg;
    while (!ready)
        pthread_cond_wait(&c, &m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, setter, 0);
    pthread_create(&b, 0, listener, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
