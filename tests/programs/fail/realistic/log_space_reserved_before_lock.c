// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=36
// A shared log buffer: each writer reserves its space by advancing the
// length, then copies its message in under the buffer's lock. The
// reservation is made before the lock is taken, so two writers can read
// the same length and one reservation is lost.
#include <pthread.h>
#include <string.h>
#include <assert.h>

static char log_text[128];
static int log_len;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void append(const char *msg) {
    int n = (int)strlen(msg);
    int at = log_len;
    log_len = at + n;
    pthread_mutex_lock(&log_lock);
    memcpy(log_text + at, msg, (size_t)n);
    pthread_mutex_unlock(&log_lock);
}

static void *writer(void *arg) {
    append((const char *)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, "open;");
    pthread_create(&b, 0, writer, "close;");
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(log_len == 11);
    return 0;
}
