// causa: expect=no-bug
// causa: check=verified
// Workers store their results under a lock; main sorts them with qsort and
// looks one up with bsearch after joining every worker. qsort and bsearch
// call back into the program, so causa runs its own C versions of them
// (<causa>/libc.c) as the program's code.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static int results[4];
static int n;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static int ascending(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void *worker(void *arg) {
    int v = *(int *)arg;
    pthread_mutex_lock(&m);
    results[n++] = v * v;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[4];
    int ids[4] = {3, 1, 4, 2};
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, worker, &ids[i]);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    qsort(results, 4, sizeof results[0], ascending);
    for (int i = 1; i < 4; i++)
        assert(results[i - 1] <= results[i]);
    int key = 9;
    int *hit = bsearch(&key, results, 4, sizeof results[0], ascending);
    assert(hit && *hit == 9);
    key = 5;
    assert(bsearch(&key, results, 4, sizeof results[0], ascending) == 0);
    return 0;
}
