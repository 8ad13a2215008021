// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=40
// Two threads append a line each to one log buffer: each reads the end
// position under the lock, copies its line there outside the lock, and
// then stores the new end under the lock again. The reservation is not
// atomic: both can read the same end, the second copy lands on the first
// and the log loses a line.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char logbuf[64];
static int pos;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void log_line(const char *s) {
    int len = strlen(s);
    pthread_mutex_lock(&m);
    int at = pos;
    pthread_mutex_unlock(&m);
    memcpy(logbuf + at, s, len);
    pthread_mutex_lock(&m);
    pos = at + len;
    pthread_mutex_unlock(&m);
}

static void *writer(void *arg) {
    log_line((const char *)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, "alpha;");
    pthread_create(&b, 0, writer, "beta;");
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(strlen(logbuf) == 11);
    printf("%s\n", logbuf);
    return 0;
}
