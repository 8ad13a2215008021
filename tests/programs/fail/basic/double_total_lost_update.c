// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=27
// Two threads add their halves of a table of doubles into one shared
// `double` total without a lock: one thread's `total += x` can read the
// total before the other's write and overwrite it. The sums are exact in
// binary (quarters), so any serial order gives 7.0.

#include <assert.h>
#include <pthread.h>

static double total;
static const double samples[4] = {1.5, 2.25, 3.0, 0.25};

static void *add(void *arg) {
    int half = *(int *)arg;
    for (int i = half * 2; i < half * 2 + 2; i++)
        total += samples[i];
    return 0;
}

int main(void) {
    pthread_t t[2];
    int ids[2] = {0, 1};
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, add, &ids[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(total == 7.0);
    return 0;
}
