// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=34
// A cache entry filled on a miss: each lookup checks under the read lock,
// releases it, takes the write lock and fills the entry without checking
// again. Two lookups can both miss and both fill. (Explanations list the
// write lock and its release as `wrlock` and `rwunlock`, as the run does.)
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t cache_lock = PTHREAD_RWLOCK_INITIALIZER;
int filled;
int fills;

void *lookup(void *arg) {
    pthread_rwlock_rdlock(&cache_lock);
    int hit = filled;
    pthread_rwlock_unlock(&cache_lock);
    if (!hit) {
        pthread_rwlock_wrlock(&cache_lock);
        filled = 1; /* BUG: no second check under the write lock */
        fills++;
        pthread_rwlock_unlock(&cache_lock);
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, lookup, 0);
    pthread_create(&b, 0, lookup, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(fills == 1);
    return 0;
}
