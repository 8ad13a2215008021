// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=40
// Two workers append a line each to a log: each reads the end position
// under the lock, copies its line (24 and 30 bytes) there outside the
// lock, and stores the new end under the lock again. Both can read the
// same end; the second line lands on the first and the log is short.
#include <assert.h>
#include <pthread.h>
#include <string.h>

static char logbuf[128];
static int pos;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void log_line(const char *text, int len) {
    pthread_mutex_lock(&m);
    int at = pos;
    pthread_mutex_unlock(&m);
    memcpy(logbuf + at, text, len);
    pthread_mutex_lock(&m);
    pos = at + len;
    pthread_mutex_unlock(&m);
}

static void *worker(void *arg) {
    if (arg)
        log_line("connection accepted from peer;", 30);
    else
        log_line("request served in 12 ms;", 24);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)1);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(strlen(logbuf) == 54);
    return 0;
}
