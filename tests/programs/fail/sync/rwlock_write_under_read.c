// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=34
// The statistics update modifies shared state while holding only the read
// lock. Read locks are shared, so two updaters can be inside at once and an
// increment is lost.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

pthread_rwlock_t stats_lock = PTHREAD_RWLOCK_INITIALIZER;
int hits = 0;

void *updater(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        pthread_rwlock_rdlock(&stats_lock);
        hits = hits + 1;
        pthread_rwlock_unlock(&stats_lock);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, updater, NULL);
    pthread_create(&b, NULL, updater, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_rwlock_rdlock(&stats_lock);
    int total = hits;
    pthread_rwlock_unlock(&stats_lock);
    assert(total == 4);
    return 0;
}
