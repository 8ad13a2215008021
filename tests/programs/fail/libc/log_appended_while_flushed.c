// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=40
// A logger thread appends a line to a shared log with strcat under the
// log's lock; a flusher appends the log to its output and empties it
// without taking the lock. A line appended between the flusher's copy and
// its clear is lost. (`check` said "verified": the flusher's strcat reads
// bytes the logger's one strcat writes together.)
#include <assert.h>
#include <pthread.h>
#include <string.h>

static char log_text[32];
static char output[64];
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void *logger(void *arg) {
    (void)arg;
    pthread_mutex_lock(&log_lock);
    strcat(log_text, "disk full\n");
    pthread_mutex_unlock(&log_lock);
    return 0;
}

static void *flush(void *arg) {
    (void)arg;
    strcat(output, log_text); /* bug: copied and cleared without log_lock */
    log_text[0] = '\0';
    return 0;
}

int main(void) {
    pthread_t l, f;
    pthread_create(&l, 0, logger, 0);
    pthread_create(&f, 0, flush, 0);
    pthread_join(l, 0);
    pthread_join(f, 0);
    strcat(output, log_text);
    /* every line reaches the output exactly once */
    assert(strcmp(output, "disk full\n") == 0);
    return 0;
}
