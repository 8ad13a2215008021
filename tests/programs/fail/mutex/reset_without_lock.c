// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=34
// A recorder adds samples to a running total and count under `lock`; a
// resetter clears both without taking it. The recorder's two updates can
// fall between the resetter's two writes (total cleared, the sample added
// to both, count cleared), and the average is then wrong. The recorder
// already holds the lock over both reads: the fix is the resetter's.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total, count;

static void *recorder(void *arg) {
    long v = (long)arg;
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&lock);
        total += v;
        count++;
        pthread_mutex_unlock(&lock);
    }
    return 0;
}

static void *resetter(void *arg) {
    (void)arg;
    total = 0; /* BUG: without `lock` */
    count = 0;
    return 0;
}

static void check(void) {
    assert(total == 5 * count);
}

int main(void) {
    pthread_t a, r;
    pthread_create(&a, 0, recorder, (void *)5);
    pthread_create(&r, 0, resetter, 0);
    pthread_join(a, 0);
    pthread_join(r, 0);
    check();
    return 0;
}
