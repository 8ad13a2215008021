// causa: expect=bug:invalid-pthread-use
// causa: check=bug
// causa: at-line=30
// main sets the flag, then "resets" the condition variable (destroy and
// init) before broadcasting on it: a waiter that checked the flag before
// the write is still waiting on the condition variable main destroys.
// (explain said "unsupported in symbolic execution: an invalid use of
// `pthread_cond_destroy`".)
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_mutex_unlock(&m);
    pthread_cond_destroy(&cv);
    pthread_cond_init(&cv, 0);
    pthread_cond_broadcast(&cv);
    pthread_join(t, 0);
    return 0;
}
