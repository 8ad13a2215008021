// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=36
// Workers append their name to one report with the usual
// `snprintf(report + used, sizeof report - used, …)`, reading `used` under
// the lock and storing the new end under it again, but formatting in
// between without it: two workers can append at the same offset, and the
// report loses a name.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char report[128];
static int used;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    int id = *(int *)arg;
    pthread_mutex_lock(&m);
    int at = used;
    pthread_mutex_unlock(&m);
    int n = snprintf(report + at, sizeof report - at, "w%d ", id);
    pthread_mutex_lock(&m);
    used = at + n;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[2];
    int ids[2] = {1, 2};
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, &ids[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    printf("%s\n", report);
    assert(strlen(report) == 6);
    return 0;
}
