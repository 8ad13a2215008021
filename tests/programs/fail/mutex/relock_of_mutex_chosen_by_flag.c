// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=19
// `logger` holds `log_m` and then takes the mutex of the sink a shared
// flag selects (`sink = verbose ? &log_m : &file_m`, a select of two
// addresses, no branch): once `setup` has set `verbose`, it locks `log_m`
// a second time and waits for itself. (Explaining it said
// "pthread_mutex_lock through an address computed from shared data" was
// unsupported; then that no order avoids it, the mutex held to the run's.)
#include <pthread.h>

pthread_mutex_t log_m = PTHREAD_MUTEX_INITIALIZER, file_m = PTHREAD_MUTEX_INITIALIZER;
int verbose;
int lines;

void *logger(void *arg) {
    pthread_mutex_lock(&log_m);
    pthread_mutex_t *sink = verbose ? &log_m : &file_m;
    pthread_mutex_lock(sink);   /* BUG: log_m again when verbose */
    lines++;
    pthread_mutex_unlock(sink);
    pthread_mutex_unlock(&log_m);
    return 0;
}

void *setup(void *arg) {
    verbose = 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, logger, 0);
    pthread_create(&b, 0, setup, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
