// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=44
// main starts one worker per half of a table to sum it, then prints the
// grand total, but it reads the second worker's partial sum before it
// joins that worker (the join was moved below the report). The read can
// come before the worker's write: the fix is the join before the read,
// not a lock.

#include <assert.h>
#include <pthread.h>

#define N 8

int table[N] = {1, 2, 3, 4, 5, 6, 7, 8};
int partial[2];

static void *sum_half(void *arg) {
    int h = *(int *)arg;
    int s = 0;
    for (int i = h * N / 2; i < (h + 1) * N / 2; i++)
        s += table[i];
    partial[h] = s;
    return 0;
}

static int report(int total) {
    return total;
}

int main(void) {
    pthread_t t[2];
    int halves[2] = {0, 1};
    for (int h = 0; h < 2; h++)
        pthread_create(&t[h], 0, sum_half, &halves[h]);
    pthread_join(t[0], 0);
    int total = partial[0] + partial[1];
    report(total);
    pthread_join(t[1], 0);
    /* the grand total is checked after both joins, but was computed
       before the second one */
    int expected = 0;
    for (int i = 0; i < N; i++) expected += table[i];
    assert(total == expected);
    return 0;
}
