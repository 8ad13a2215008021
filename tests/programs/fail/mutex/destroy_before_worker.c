// causa: expect=bug:invalid-pthread-use
// causa: check=bug
// causa: at-line=15,27
// main destroys the log's mutex before joining the logger, which may not
// have taken it yet: it then locks a destroyed mutex (or holds it while
// main destroys it).
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int lines;

static void *logger(void *arg) {
    (void)arg;
    pthread_mutex_lock(&log_lock);
    lines++;
    pthread_mutex_unlock(&log_lock);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, logger, 0);
    pthread_mutex_lock(&log_lock);
    lines++;
    pthread_mutex_unlock(&log_lock);
    pthread_mutex_destroy(&log_lock);   /* bug: the logger may not have run yet */
    pthread_join(t, 0);
    printf("%d lines\n", lines);
    return 0;
}
