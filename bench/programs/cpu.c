// CPU-bound, single thread: a sieve and an arithmetic loop over local data.
// Measures interpreted LLVM instructions per second (no visible operations inside
// the loops: the arrays are locals whose address never escapes).
#include <stdio.h>

#define N 20000

static unsigned mix(unsigned x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

int main(void) {
    char composite[N];
    for (int i = 0; i < N; i++)
        composite[i] = 0;
    int primes = 0;
    for (int i = 2; i < N; i++) {
        if (composite[i])
            continue;
        primes++;
        for (int j = 2 * i; j < N; j += i)
            composite[j] = 1;
    }
    unsigned h = 1;
    long sum = 0;
    for (int r = 0; r < 200000; r++) {
        h = mix(h);
        sum += h % 1000;
    }
    printf("%d primes, checksum %ld\n", primes, sum);
    return 0;
}
