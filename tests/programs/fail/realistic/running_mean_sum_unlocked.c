// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=38
// Two samplers each add their sample to a shared sum twice and count it
// under a lock, but read and write the sum outside it: an addition lost
// between the read and the write leaves main's mean wrong. The sum is a
// double; the explanation's solver knows the values it can hold (every
// value some additions of the samples make, in any order) and tabulates
// the mean's division over them instead of bit-blasting it (26 s of
// solving without, for 37 events).
#include <assert.h>
#include <pthread.h>

static double sum;
static int count;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *sampler(void *arg) {
    double v = *(double *)arg;
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        count++;
        pthread_mutex_unlock(&m);
        double s = sum; /* BUG: the sum is updated outside the lock */
        sum = s + v;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    double va = 1.5, vb = 2.5;
    pthread_create(&a, 0, sampler, &va);
    pthread_create(&b, 0, sampler, &vb);
    pthread_join(a, 0);
    pthread_join(b, 0);
    double mean = sum / count;
    assert(mean == 2.0);
    return 0;
}
