// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// main resets the statistics with memset without taking their lock, while
// a worker counts a hit under the lock: when the worker's increment comes
// first, the reset overwrites it and main's check finds no hit.

#include <assert.h>
#include <pthread.h>
#include <string.h>

struct stats { int hits; int misses; };
static struct stats st;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    st.hits++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    memset(&st, 0, sizeof st);       /* bug: reset without the lock, may drop the worker's hit */
    pthread_join(t, 0);
    pthread_mutex_lock(&m);
    int h = st.hits;
    pthread_mutex_unlock(&m);
    assert(h == 1);
    return 0;
}
