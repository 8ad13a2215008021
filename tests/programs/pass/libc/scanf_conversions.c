// causa: expect=no-bug
// causa: check=verified
// causa: stdout=3 42 apples 3.5 | 2.25 | -1 0 1 | rows=2 total=30 last=bob | key=port value=8080 n=11
// sscanf and fscanf as glibc does them: numbers, words, floats, scansets,
// %n, literals, a matching failure (0) and the end of the input (-1); a
// file the run wrote, scanned record by record until fscanf stops.
#include <stdio.h>
#include <string.h>
#include <assert.h>

int main(void) {
    char buf[64] = "  42 apples 3.5";
    int n = 0;
    char word[16];
    float f = 0;
    double d = 0;
    int k = sscanf(buf, "%d %15s %f", &n, word, &f);
    printf("%d %d %s %.1f | ", k, n, word, f);
    assert(sscanf("x=2.25;", "x=%lf;", &d) == 1);
    printf("%.2f | ", d);
    int at = 0;
    printf("%d %d %d | ", sscanf("", "%d", &n), sscanf("abc", "%d", &n), sscanf("7", "%d%n", &n, &at));
    assert(n == 7 && at == 1);

    FILE *out = fopen("/tmp/causa-scanf-test.txt", "w");
    assert(out != NULL);
    fputs("alice 10\nbob 20\n", out);
    fclose(out);
    FILE *in = fopen("/tmp/causa-scanf-test.txt", "r");
    assert(in != NULL);
    char name[16];
    int amount, total = 0, rows = 0;
    while (fscanf(in, "%15s %d", name, &amount) == 2) {
        total += amount;
        rows++;
    }
    assert(fscanf(in, "%d", &amount) == -1);
    fclose(in);
    printf("rows=%d total=%d last=%s | ", rows, total, name);

    char key[16], value[16];
    int used = 0;
    assert(sscanf("port = 8080", "%15[^ =] = %15s%n", key, value, &used) == 2);
    printf("key=%s value=%s n=%d\n", key, value, used);
    return 0;
}
