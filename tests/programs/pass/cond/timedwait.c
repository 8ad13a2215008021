// causa: expect=no-bug
// causa: check=verified
// A timed wait may time out (causa lets it return ETIMEDOUT in some schedules);
// the waiter handles both outcomes, so no schedule fails. The waiter may time
// out any number of times before the signaller runs; busy-wait parking lets a
// repeated timeout happen only after the signaller changed something the loop
// looks at, so `causa check` ends.
#include <errno.h>
#include <pthread.h>
#include <assert.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int ready;

static void *signaller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, signaller, 0);
    struct timespec deadline = {0, 0};
    pthread_mutex_lock(&m);
    while (!ready) {
        int r = pthread_cond_timedwait(&c, &m, &deadline);
        assert(r == 0 || r == ETIMEDOUT);
    }
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    assert(ready == 1);
    return 0;
}
