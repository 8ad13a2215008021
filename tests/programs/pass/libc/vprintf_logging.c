// causa: expect=no-bug
// causa: check=verified
// causa: stdout=logged 51: answer=42 (3.14) z 4000000000 -9000000000 ff (nil)
// causa: stdout=logged 17: [padded  |  2.2|+7]
// causa: stdout=truncated: 70 63 yes
// causa: stdout=vprintf: 1 0.5 two
// causa: stdout=rest: 3 four
// causa: stdout=vsprintf 7: 00042|x
// causa: stdout=after worker: worker 7: done
// A variadic logging wrapper forwards its arguments to vfprintf(stderr) and,
// through a va_copy, to vsnprintf into a 64-byte buffer (truncating, returning
// the full length). vprintf advances the caller's va_list, so va_arg afterwards
// reads the next arguments; vsprintf fills a buffer. The expected lines are the
// output of the same program built with gcc against glibc (x86-64).
#include <assert.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char last[64];

/* A logging wrapper: the message goes to stderr and into `last`. */
static int log_msg(const char *fmt, ...) {
    va_list ap, copy;
    va_start(ap, fmt);
    va_copy(copy, ap);
    pthread_mutex_lock(&log_lock);
    vfprintf(stderr, fmt, ap);
    int n = vsnprintf(last, sizeof last, fmt, copy);
    pthread_mutex_unlock(&log_lock);
    va_end(copy);
    va_end(ap);
    return n;
}

/* vprintf, then va_arg continues with the arguments after the ones it read (as
   on x86-64, where a va_list is passed by reference; the C standard leaves `ap`
   indeterminate after vprintf). */
static void print_then_rest(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    int third = va_arg(ap, int);
    const char *fourth = va_arg(ap, const char *);
    printf("rest: %d %s\n", third, fourth);
    va_end(ap);
}

static int to_buffer(char *buf, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsprintf(buf, fmt, ap);
    va_end(ap);
    return n;
}

static void *worker(void *arg) {
    log_msg("worker %d: %s\n", *(int *)arg, "done");
    return NULL;
}

int main(void) {
    int n = log_msg("%s=%d (%.2f) %c %lu %lld %x %p\n", "answer", 42, 3.14159, 'z', 4000000000UL, -9000000000LL,
                    255, (void *)0);
    printf("logged %d: %s", n, last);

    n = log_msg("%-8s|%5.1f|%+d", "padded", 2.25, 7);
    printf("logged %d: [%s]\n", n, last);

    n = log_msg("%s and more text that does not fit into the sixty-four byte buffer %d", "long", 1);
    printf("truncated: %d %zu %s\n", n, strlen(last), n >= (int)sizeof last ? "yes" : "no");

    print_then_rest("vprintf: %d %.1f %s\n", 1, 0.5, "two", 3, "four");

    char buf[32];
    n = to_buffer(buf, "%05d|%s", 42, "x");
    printf("vsprintf %d: %s\n", n, buf);

    pthread_t t;
    int id = 7;
    pthread_create(&t, NULL, worker, &id);
    pthread_join(t, NULL);
    printf("after worker: %s", last);
    return 0;
}
