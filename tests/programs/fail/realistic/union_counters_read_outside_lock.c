// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=34
// Two 32-bit counters share a union with one 64-bit word, so that a reset
// clears both with one store. The sender bumps `sent` and then `acked`,
// each under the lock; the reporter reads the two halves without it and can
// see a new `sent` with an old `acked`.
#include <pthread.h>
#include <stdint.h>
#include <assert.h>

union counters { uint64_t word; struct { uint32_t sent, acked; } half; };
static union counters st;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *sender(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    st.word = 0;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    st.half.sent++;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    st.half.acked++;
    pthread_mutex_unlock(&m);
    return 0;
}

static void *reporter(void *arg) {
    (void)arg;
    uint32_t s = st.half.sent;
    uint32_t a = st.half.acked;
    assert(s == a);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, sender, 0);
    pthread_create(&t2, 0, reporter, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
