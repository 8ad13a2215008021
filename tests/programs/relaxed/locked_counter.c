// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=verified
// Two threads increment a counter and set a per-thread flag under a mutex.
// Lock and unlock drain the store buffer, so the counter is right under
// every model; the flags written inside the critical sections are seen by
// main after the joins.

#include <assert.h>
#include <pthread.h>

int count, done0, done1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *work(void *arg) {
    pthread_mutex_lock(&m);
    count = count + 1;
    if (arg)
        done1 = 1;
    else
        done0 = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, work, 0);
    pthread_create(&q, 0, work, (void *)1);
    pthread_join(p, 0);
    pthread_join(q, 0);
    assert(count == 2 && done0 && done1);
    return 0;
}
