// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=43
// Request statistics: `hits` is guarded by hits_lock and `total` by
// total_lock. The reporter reads them in two critical sections, so a
// server's two updates can fall between its reads: a new `hits` with an
// old `total`. (The summary told only the read of `hits`: no object's
// accesses are interleaved, it is the pair that must be read together.)
#include <pthread.h>
#include <assert.h>

struct stats {
    pthread_mutex_t hits_lock;  long hits;
    pthread_mutex_t total_lock; long total;
};
static struct stats st = { PTHREAD_MUTEX_INITIALIZER, 0,
                           PTHREAD_MUTEX_INITIALIZER, 0 };

static void record_hit(void) {
    pthread_mutex_lock(&st.total_lock);
    st.total++;
    pthread_mutex_unlock(&st.total_lock);
    pthread_mutex_lock(&st.hits_lock);
    st.hits++;
    pthread_mutex_unlock(&st.hits_lock);
}

static void *server(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++)
        record_hit();
    return NULL;
}

static void *reporter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&st.total_lock);
    long total = st.total;
    pthread_mutex_unlock(&st.total_lock);
    pthread_mutex_lock(&st.hits_lock);
    long hits = st.hits;
    pthread_mutex_unlock(&st.hits_lock);
    assert(hits <= total);          /* hit ratio must be <= 100% */
    return NULL;
}

int main(void) {
    pthread_t s, r;
    pthread_create(&s, NULL, server, NULL);
    pthread_create(&r, NULL, reporter, NULL);
    pthread_join(s, NULL);
    pthread_join(r, NULL);
    return 0;
}
