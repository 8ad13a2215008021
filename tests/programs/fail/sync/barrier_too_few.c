// causa: expect=bug:deadlock
// causa: check=bug
// The barrier is initialised for three threads but only the two workers
// wait at it: both wait forever (and main in pthread_join), in every
// order.
#include <pthread.h>

static pthread_barrier_t start;

static void *worker(void *arg) {
    (void)arg;
    pthread_barrier_wait(&start);
    return 0;
}

int main(void) {
    pthread_barrier_init(&start, 0, 3);   /* bug: only two threads wait */
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_barrier_destroy(&start);
    return 0;
}
