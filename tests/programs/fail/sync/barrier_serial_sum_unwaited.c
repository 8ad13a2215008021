// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=21
// Two workers meet at a barrier; the one pthread_barrier_wait picks as the
// serial thread sums the partial results, but the other checks the sum
// without waiting for it. (Which call returns PTHREAD_BARRIER_SERIAL_THREAD
// is decided by the order of the arrivals, in the solver too.)
#include <assert.h>
#include <pthread.h>

static pthread_barrier_t bar;
static int partial[2];
static int total;

static void *worker(void *arg) {
    int id = *(int *)arg;
    partial[id] = id + 1;
    if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
        total = partial[0] + partial[1];
    /* bug: the other thread does not wait for the sum */
    assert(total == 3);
    return 0;
}

int main(void) {
    pthread_barrier_init(&bar, 0, 2);
    pthread_t a, b;
    int ids[2] = {0, 1};
    pthread_create(&a, 0, worker, &ids[0]);
    pthread_create(&b, 0, worker, &ids[1]);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
