// Parallel merge sort: 4 threads sort quarters of an array of N
// pseudo-random ints, then main merges. CPU-bound, branch-heavy.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 4000000
#endif
#define T 4

static int *a, *tmp;

static void msort(int lo, int hi) {
    if (hi - lo < 2)
        return;
    int mid = (lo + hi) / 2;
    msort(lo, mid);
    msort(mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid)
        tmp[k++] = a[i++];
    while (j < hi)
        tmp[k++] = a[j++];
    for (k = lo; k < hi; k++)
        a[k] = tmp[k];
}

static void *part(void *arg) {
    long q = (long)arg;
    msort(q * (N / T), (q + 1) * (N / T));
    return 0;
}

int main(void) {
    a = malloc(sizeof(int) * N);
    tmp = malloc(sizeof(int) * N);
    unsigned s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (int)(s >> 8);
    }
    pthread_t t[T];
    for (long q = 0; q < T; q++)
        pthread_create(&t[q], 0, part, (void *)q);
    for (int q = 0; q < T; q++)
        pthread_join(t[q], 0);
    long sorted = 0;
    for (int q = 0; q < T; q++)
        for (int i = q * (N / T) + 1; i < (q + 1) * (N / T); i++)
            sorted += a[i - 1] <= a[i];
    printf("%ld\n", sorted);
    return 0;
}
