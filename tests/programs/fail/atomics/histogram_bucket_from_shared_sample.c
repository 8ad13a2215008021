// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=38
// Workers take samples from a shared array by an atomic ticket and count
// them in an atomic histogram (`atomic_fetch_add(&hist[samples[i]], 1)`,
// an atomic update at an address computed from shared data); the number
// of samples seen is kept in a plain int, updated without a lock.
// (Explaining it said "an atomic read-modify-write through an address
// computed from shared data" was unsupported.)
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int samples[6] = {1, 3, 0, 2, 3, 1};
atomic_int ticket;
atomic_int hist[4];
int seen;

void *worker(void *arg) {
    for (;;) {
        int i = atomic_fetch_add(&ticket, 1);
        if (i >= 6) break;
        atomic_fetch_add(&hist[samples[i]], 1);
        seen = seen + 1;   /* BUG */
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int total = 0;
    for (int k = 0; k < 4; k++) total += hist[k];
    assert(total == 6);
    assert(seen == 6);
    return 0;
}
