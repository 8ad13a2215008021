// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=36
// A reporter takes a snapshot of a growing sample array: it reads the
// count, allocates that many ints (and one more) and copies them, then sums
// the copy. The sampler publishes each new sample by bumping the count
// before it writes the sample, without a lock: the snapshot may copy a
// sample not written yet. The allocation and the copy are sized by the
// shared count (the run's sizes, from the path log).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int samples[16];
int count;

void *sampler(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        int at = count;
        count = at + 1; /* published before it is filled */
        samples[at] = 10;
    }
    return 0;
}

void *reporter(void *arg) {
    (void)arg;
    int n = count;
    int *copy = malloc((n + 1) * sizeof *copy);
    memcpy(copy, samples, n * sizeof *copy);
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += copy[i];
    assert(sum == 10 * n);
    free(copy);
    return 0;
}

int main(void) {
    pthread_t s, r;
    pthread_create(&s, 0, sampler, 0);
    pthread_create(&r, 0, reporter, 0);
    pthread_join(s, 0);
    pthread_join(r, 0);
    return 0;
}
