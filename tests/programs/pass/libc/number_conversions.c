// causa: expect=no-bug
// causa: check=verified
// causa: stdout=strtod: -125.00 rest=xyz
// causa: stdout=strtod hex: 12.000 rest= tail
// causa: stdout=strtod point: 0.250 rest=[]
// causa: stdout=strtod partial exponent: 1.0 rest=e+
// causa: stdout=strtod none: 0.0 same=1
// causa: stdout=strtod inf: -inf rest=[]
// causa: stdout=strtod nan: 1 rest=!
// causa: stdout=strtod huge: inf erange=1
// causa: stdout=strtod tiny: 0 erange=1
// causa: stdout=strtof: 3.14159 1
// causa: stdout=atof: 2.718 0.0
// causa: stdout=strtol max: 1 erange=1 rest=[]
// causa: stdout=strtol min: 1 erange=1
// causa: stdout=strtoul -1: 1 errno=0
// causa: stdout=strtoul over: 1 erange=1
// causa: stdout=strtoll min: 1 errno=0
// causa: stdout=strtoll hex: 9223372036854775807
// causa: stdout=strtoull oct: 511
// causa: stdout=strtol 0x: 0 rest=x
// causa: stdout=strtol bad base: 0 einval=1
// causa: stdout=atoi: -42 0 123456789012
// Number parsing: strtod/strtof/atof take the longest valid prefix (decimal,
// hexadecimal, inf, nan(...)) and set the end pointer; overflow and underflow
// set errno to ERANGE. The strtol family clamps out-of-range values to
// LONG_MAX/LONG_MIN/ULONG_MAX with ERANGE, negates "-1" for strtoul without an
// error, ends "0x" after the 0, and rejects base 99 with EINVAL. The expected
// lines are the output of the same program built with gcc against glibc.
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char *end;
    double d = strtod("  -12.5e1xyz", &end);
    printf("strtod: %.2f rest=%s\n", d, end);
    d = strtod("0x1.8p3 tail", &end);
    printf("strtod hex: %.3f rest=%s\n", d, end);
    d = strtod(".25", &end);
    printf("strtod point: %.3f rest=[%s]\n", d, end);
    d = strtod("1e+", &end);
    printf("strtod partial exponent: %.1f rest=%s\n", d, end);
    const char *junk = "abc";
    d = strtod(junk, &end);
    printf("strtod none: %.1f same=%d\n", d, end == junk);
    d = strtod("-inf", &end);
    printf("strtod inf: %f rest=[%s]\n", d, end);
    d = strtod("nan(xyz)!", &end);
    printf("strtod nan: %d rest=%s\n", d != d, end);
    errno = 0;
    d = strtod("1e999", &end);
    printf("strtod huge: %f erange=%d\n", d, errno == ERANGE);
    errno = 0;
    d = strtod("1e-999", &end);
    printf("strtod tiny: %g erange=%d\n", d, errno == ERANGE);

    float f = strtof("3.14159", &end);
    printf("strtof: %.5f %d\n", f, f == 3.14159f);
    printf("atof: %.3f %.1f\n", atof("  2.718end"), atof("nothing"));

    errno = 0;
    long l = strtol("99999999999999999999", &end, 10);
    printf("strtol max: %d erange=%d rest=[%s]\n", l == LONG_MAX, errno == ERANGE, end);
    errno = 0;
    l = strtol("-99999999999999999999", NULL, 10);
    printf("strtol min: %d erange=%d\n", l == LONG_MIN, errno == ERANGE);
    errno = 0;
    unsigned long ul = strtoul("-1", NULL, 10);
    printf("strtoul -1: %d errno=%d\n", ul == ULONG_MAX, errno);
    errno = 0;
    ul = strtoul("18446744073709551616", NULL, 10);
    printf("strtoul over: %d erange=%d\n", ul == ULONG_MAX, errno == ERANGE);
    errno = 0;
    long long ll = strtoll("-9223372036854775808", NULL, 0);
    printf("strtoll min: %d errno=%d\n", ll == LLONG_MIN, errno);
    printf("strtoll hex: %lld\n", strtoll("0x7fffffffffffffff", NULL, 16));
    printf("strtoull oct: %llu\n", strtoull("0777", NULL, 0));
    l = strtol("0x", &end, 16);
    printf("strtol 0x: %ld rest=%s\n", l, end);
    errno = 0;
    l = strtol("12", &end, 99);
    printf("strtol bad base: %ld einval=%d\n", l, errno == EINVAL);
    printf("atoi: %d %d %ld\n", atoi(" -42abc"), atoi("x"), atol("123456789012"));
    return 0;
}
