// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=26
// Each worker formats its report line into one shared buffer with
// snprintf, then takes the lock to copy it out. The snprintf is outside
// the lock: another worker can overwrite the line between a worker's
// snprintf and its copy, and the worker then reports the other's line.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char line[32];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    int id = (int)(long)arg;
    char copy[32];
    snprintf(line, sizeof line, "worker %d done", id); /* bug: outside the lock */
    pthread_mutex_lock(&m);
    strcpy(copy, line);
    pthread_mutex_unlock(&m);
    char expected[32];
    sprintf(expected, "worker %d done", id);
    assert(strcmp(copy, expected) == 0);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, (void *)(i + 1));
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    printf("%s\n", line);
    return 0;
}
