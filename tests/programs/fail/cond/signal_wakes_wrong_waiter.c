// causa: expect=bug:deadlock
// causa: check=bug
// Two waiters wait on one condition variable for different stages; main
// announces stage 1 with pthread_cond_signal, which may wake the stage-2
// waiter (it waits again) instead of the stage-1 one, which then sleeps
// forever while main waits in pthread_join.
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int stage;

static void *waiter(void *arg) {
    int want = *(int *)arg;
    pthread_mutex_lock(&m);
    while (stage < want)
        pthread_cond_wait(&changed, &m);
    if (want == 1) {
        stage = 2;
        pthread_cond_signal(&changed);
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int one = 1, two = 2;
    pthread_create(&a, 0, waiter, &two);
    pthread_create(&b, 0, waiter, &one);
    pthread_mutex_lock(&m);
    stage = 1;
    pthread_cond_signal(&changed);   /* bug: the stage-2 waiter may take it */
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
