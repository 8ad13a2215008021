// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=48
// Two clients record cache hits and misses under a lock, then each
// recomputes the hit ratio outside it from a copy of the counters: a
// client whose copy is older than the other's last update writes the
// ratio last, and main finds it stale. The ratio is a floating-point
// division of two counters; the explanation's solver tabulates it over
// the counters' values (their domains are their initial value plus some
// of their increments) instead of bit-blasting the division (σ's check
// took 92 s that way).
#include <assert.h>
#include <pthread.h>

struct stats {
    unsigned hits, misses;
    double ratio;
};
static struct stats global_stats;
static pthread_mutex_t sm = PTHREAD_MUTEX_INITIALIZER;

static void record(int hit) {
    pthread_mutex_lock(&sm);
    if (hit)
        global_stats.hits++;
    else
        global_stats.misses++;
    pthread_mutex_unlock(&sm);
    struct stats copy = global_stats; /* bug: copied and used outside the lock */
    global_stats.ratio = (double)copy.hits / (copy.hits + copy.misses);
}

static void *client(void *arg) {
    int pattern = *(int *)arg;
    for (int i = 0; i < 3; i++)
        record((i + pattern) % 2);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int p0 = 0, p1 = 1;
    pthread_create(&a, 0, client, &p0);
    pthread_create(&b, 0, client, &p1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    double expect = (double)global_stats.hits / (global_stats.hits + global_stats.misses);
    assert(global_stats.ratio == expect);
    return 0;
}
