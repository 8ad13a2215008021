// causa: expect=no-bug
// causa: check=verified
// causa: stdout=sum=60 avg=2.50
// A user-defined variadic function (va_start/va_arg/va_end) with ints and doubles:
// clang expands va_arg inline for x86-64, reading the va_list causa builds.
#include <stdarg.h>
#include <stdio.h>

static int sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static double avg(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, double);
    va_end(ap);
    return s / n;
}

int main(void) {
    printf("sum=%d avg=%.2f\n", sum(3, 10, 20, 30), avg(4, 1.0, 2.0, 3.0, 4.0));
    return 0;
}
