// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=29
// "The last worker to finish reports": each worker counts itself in
// atomically and then reads the count again; both can count in before
// either reads, so both see 2 and both report. The fix is to test the
// value atomic_fetch_add returns.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

static atomic_int finished;
static int reports;

static void *worker(void *arg) {
    (void)arg;
    atomic_fetch_add(&finished, 1);
    if (atomic_load(&finished) == 2)   /* bug: re-reads the count */
        reports++;                     /* the last worker reports */
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(reports == 1);
    return 0;
}
