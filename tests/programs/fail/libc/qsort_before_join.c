// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=28
// main ranks the scores with qsort before joining the thread that still
// updates one of them: a score written while (or after) qsort moves the
// elements is left out of order. qsort runs as causa's C version
// (<causa>/libc.c), so its element moves are the program's accesses.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int scores[4] = {40, 10, 30, 20};

static int by_value(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static void *late_update(void *arg) {
    (void)arg;
    scores[3] = 5;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, late_update, 0);
    qsort(scores, 4, sizeof scores[0], by_value); /* bug: before the join */
    pthread_join(t, 0);
    for (int i = 1; i < 4; i++)
        assert(scores[i - 1] <= scores[i]);
    return 0;
}
