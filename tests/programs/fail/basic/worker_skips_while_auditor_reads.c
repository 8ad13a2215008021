// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: tso=bug:assertion-violation
// causa: pso=bug:assertion-violation
// A worker announces itself (`ready = 1`), then tries the stats lock; when
// the auditor holds it, the worker skips its update, counting on the
// auditor to have seen it ready. But the auditor may have read `ready`
// before the announcement: then neither records the worker. The state
// needs the auditor's read before the store and the worker's trylock
// during the auditor's section. `causa check` said verified until the
// eighty-fourth session (under SC, TSO and PSO; `causa test` finds it in
// its first execution): the trylock's failure was asked for keeping only
// its own causal past, the worker's store, so in the new schedule the
// auditor's read came after the store and saw 1.

#include <assert.h>
#include <pthread.h>

int ready, updated, seen_ready;
pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;

void *auditor(void *arg) {
    pthread_mutex_lock(&stats);
    seen_ready = ready;
    pthread_mutex_unlock(&stats);
    return 0;
}

void *worker(void *arg) {
    ready = 1;
    if (pthread_mutex_trylock(&stats) == 0) {
        updated = 1;
        pthread_mutex_unlock(&stats);
    }
    return 0;
}

int main(void) {
    pthread_t a, w;
    pthread_create(&a, 0, auditor, 0);
    pthread_create(&w, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(w, 0);
    assert(updated || seen_ready);
    return 0;
}
