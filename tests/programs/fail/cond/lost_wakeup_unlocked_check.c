// causa: expect=bug:deadlock
// causa: check=bug
// The waiter tests `ready` before taking the mutex. If the signaller sets the
// flag and signals between that test and the wait, the signal is lost and the
// waiter sleeps forever while main waits in pthread_join.

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready = 0;
int payload = 0;

void *waiter(void *arg) {
    (void)arg;
    if (!ready) {
        pthread_mutex_lock(&m);
        pthread_cond_wait(&cv, &m);
        pthread_mutex_unlock(&m);
    }
    pthread_mutex_lock(&m);
    printf("payload=%d\n", payload);
    pthread_mutex_unlock(&m);
    return NULL;
}

void *signaller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    payload = 42;
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t w, s;
    pthread_create(&w, NULL, waiter, NULL);
    pthread_create(&s, NULL, signaller, NULL);
    pthread_join(w, NULL);
    pthread_join(s, NULL);
    return 0;
}
