// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=41
// The worker takes the lock `lockp` points to; the mover updates the
// counter without any lock and then points `lockp` at another lock (only a
// worker that took the first lock can lose the update). The worker
// is followed first in symbolic execution: the lock pointer is pinned to
// the value it read, which a pass knowing the mover's write would not do
// (a lock needs a known address): the first pass is kept.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t locks[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static pthread_mutex_t *lockp = &locks[0];
static int counter = 0;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_t *m = lockp;
    pthread_mutex_lock(m);
    int c = counter;
    counter = c + 1;
    pthread_mutex_unlock(m);
    return NULL;
}

void *mover(void *arg) {
    (void)arg;
    int c = counter;
    counter = c + 1;
    lockp = &locks[1];
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, mover, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(counter == 2);
    return 0;
}
