// causa: expect=bug:invalid-pthread-use
// (The solver models the clock read as the run read it.)
// causa: check=bug
// causa: at-line=18
// causa: message=pthread_cond_timedwait
// pthread_cond_timedwait must be called with the mutex held.
#include <pthread.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;

int main(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    int r;
    r = pthread_cond_timedwait(&c, &m, &ts);
    return r;
}
