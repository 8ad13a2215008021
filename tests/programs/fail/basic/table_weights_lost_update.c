// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=28
// Two threads add their halves of a constant table into one shared total
// without a lock. Each thread's half comes from its argument, so the table
// entries it loads are at addresses computed from a read (of `ids`, which
// main wrote before creating it): symbolic execution first leaves that read
// free, then finds it determined and runs again with the loads constant.

#include <assert.h>
#include <pthread.h>

static long total;
static const long weights[4] = {15, 20, 30, 5};

static void *add(void *arg) {
    int half = *(int *)arg;
    for (int i = half * 2; i < half * 2 + 2; i++)
        total += weights[i];
    return 0;
}

int main(void) {
    pthread_t t[2];
    int ids[2] = {0, 1};
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, add, &ids[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(total == 70);
    return 0;
}
