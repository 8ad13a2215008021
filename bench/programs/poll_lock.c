// A worker polls a flag under a lock that nobody sets (docs/performance.md,
// "causa check of a polling loop under a lock"): `causa check` parks the loop
// at its unlock and reports the hang as a deadlock; before it did, every
// execution ran to --max-steps.
#include <pthread.h>
int flag;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
    (void)a;
    for (;;) {
        pthread_mutex_lock(&m);
        int f = flag;
        pthread_mutex_unlock(&m);
        if (f)
            break;
    }
    return 0;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    pthread_join(t, 0);
    return 0;
}
