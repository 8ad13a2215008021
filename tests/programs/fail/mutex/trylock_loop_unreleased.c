// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=15,28,29
// Workers poll a mutex with pthread_mutex_trylock until they get it; the
// first one to get it returns early on one path without unlocking it, and
// the other polls forever. (`causa test` ran every execution into its step
// bound: a loop of failed trylocks was not parked as a busy wait.)
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int served;

static void *worker(void *arg) {
    (void)arg;
    while (pthread_mutex_trylock(&m) != 0)
        ;
    served++;
    if (served == 1)
        return 0; /* forgets pthread_mutex_unlock */
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
