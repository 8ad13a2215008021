// causa: expect=no-bug
// causa: stdout=printf: -5 -5 4294967291 -3 4 -9000000000 2.50
// causa: stdout=vsnprintf 42: -5|4294967291|-7|-9000000000|0.2|str|  4|q
// causa: stdout=strtol: 1 erange=1
// causa: stdout=strtoul: 1 erange=1
// causa: stdout=strtoll: -9000000000
// causa: stdout=timespec: 1
// causa: cflags=-m32
// The printf family in a 32-bit program, where `long` and `size_t` take 4 bytes
// in a va_list and `long long` and `double` 8: a negative `long` prints signed
// through both printf and vsnprintf, and strtol/strtoul clamp to the 32-bit
// range with ERANGE. The expected lines are the output of the same program
// built with gcc -m32 against glibc.
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int say(char *buf, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, 80, fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    long neg = -5;
    printf("printf: %ld %li %lu %zd %zu %lld %.2f\n", neg, neg, (unsigned long)neg, (ssize_t)-3, sizeof(long),
           -9000000000LL, 2.5);
    char buf[80];
    int n = say(buf, "%ld|%lu|%d|%lld|%.1f|%s|%*d|%c", neg, (unsigned long)neg, -7, -9000000000LL, 0.25, "str", 3,
                4, 'q');
    printf("vsnprintf %d: %s\n", n, buf);

    errno = 0;
    long l = strtol("3000000000", NULL, 10);
    printf("strtol: %d erange=%d\n", l == LONG_MAX, errno == ERANGE);
    errno = 0;
    unsigned long ul = strtoul("4294967296", NULL, 10);
    printf("strtoul: %d erange=%d\n", ul == ULONG_MAX, errno == ERANGE);
    printf("strtoll: %lld\n", strtoll("-9000000000", NULL, 10));

    struct timespec ts = {-1, -1};
    clock_gettime(CLOCK_REALTIME, &ts);
    printf("timespec: %d\n", ts.tv_sec >= 0 && ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000);
    return 0;
}
