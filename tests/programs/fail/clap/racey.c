// causa: expect=bug:assertion-violation
// causa: iterations=3000
// A race-heavy stress program with a long trace (in the spirit of racey, Hill
// and Xu): threads update a shared signature array without synchronisation,
// each step mixing a value read from one slot into another. The final
// signature depends on the interleaving; main compares it with the value of
// the sequential run (thread by thread), so any interleaving that lets the
// races matter fails. LOOPS scales the trace (about 4·THREADS·LOOPS shared
// accesses).

#include <assert.h>
#include <pthread.h>

#ifndef LOOPS
#define LOOPS 4
#endif
#define THREADS 3
#define SLOTS 16

unsigned sig[SLOTS];

static void mix(int tid) {
    for (int i = 0; i < LOOPS; i++) {
        int from = (i * 5 + tid) % SLOTS;
        int to = (i * 3 + tid * 7 + 1) % SLOTS;
        unsigned v = sig[from];
        sig[to] = sig[to] * 31u + v + (unsigned)tid + 1u;
    }
}

void *worker(void *arg) {
    mix(*(int *)arg);
    return 0;
}

int main(void) {
    /* the sequential signature */
    for (int t = 0; t < THREADS; t++)
        mix(t);
    unsigned expected = 0;
    for (int s = 0; s < SLOTS; s++) {
        expected = expected * 17u + sig[s];
        sig[s] = 0;
    }
    pthread_t th[THREADS];
    int ids[THREADS];
    for (int t = 0; t < THREADS; t++) {
        ids[t] = t;
        pthread_create(&th[t], 0, worker, &ids[t]);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], 0);
    unsigned got = 0;
    for (int s = 0; s < SLOTS; s++)
        got = got * 17u + sig[s];
    assert(got == expected);
    return 0;
}
