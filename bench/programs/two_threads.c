// Two threads, about 100 visible events per execution: each thread takes a
// lock around an update of shared counters 8 times. Measures executions per
// second of `causa test` (random strategy).
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int hits, total;

static void *worker(void *arg) {
    int id = *(int *)arg;
    for (int i = 0; i < 8; i++) {
        pthread_mutex_lock(&m);
        hits = hits + 1;
        total = total + id;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    int ia = 1, ib = 2;
    pthread_create(&a, 0, worker, &ia);
    pthread_create(&b, 0, worker, &ib);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(hits == 16 && total == 24);
    return 0;
}
