// causa: expect=no-bug
// causa: check=verified
// causa: stdout=sorted 64 elements, first 0 last 63, checksum 2016
// Parallel merge sort of a 64-element array. The top two levels of the
// recursion run in separate threads (at most 4 threads alive at once); lower
// levels are sequential. Each level merges into a malloc'ed scratch buffer and
// copies back with memcpy. Sibling threads work on disjoint halves and the
// parent joins both before merging, so the result is always sorted.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 64
#define PAR_DEPTH 2

struct sort_args {
    int *base;
    size_t len;
    int depth;
};

static int data[N];

static void merge(int *base, size_t mid, size_t len) {
    int *tmp = malloc(len * sizeof(int));
    assert(tmp != NULL);
    size_t i = 0, j = mid, k = 0;
    while (i < mid && j < len) {
        if (base[i] <= base[j])
            tmp[k++] = base[i++];
        else
            tmp[k++] = base[j++];
    }
    if (i < mid) {
        memcpy(tmp + k, base + i, (mid - i) * sizeof(int));
        k += mid - i;
    }
    if (j < len) {
        memcpy(tmp + k, base + j, (len - j) * sizeof(int));
        k += len - j;
    }
    assert(k == len);
    memcpy(base, tmp, len * sizeof(int));
    free(tmp);
}

static void insertion_sort(int *base, size_t len) {
    for (size_t i = 1; i < len; i++) {
        int v = base[i];
        size_t j = i;
        while (j > 0 && base[j - 1] > v) {
            base[j] = base[j - 1];
            j--;
        }
        base[j] = v;
    }
}

static void *sort_thread(void *p);

static void msort(int *base, size_t len, int depth) {
    if (len <= 4) {
        insertion_sort(base, len);
        return;
    }
    size_t mid = len / 2;
    if (depth < PAR_DEPTH) {
        struct sort_args left = {base, mid, depth + 1};
        struct sort_args right = {base + mid, len - mid, depth + 1};
        pthread_t tl, tr;
        int rc = pthread_create(&tl, NULL, sort_thread, &left);
        assert(rc == 0);
        if (depth + 1 < PAR_DEPTH) {
            rc = pthread_create(&tr, NULL, sort_thread, &right);
            assert(rc == 0);
            pthread_join(tr, NULL);
        } else {
            msort(right.base, right.len, right.depth);
        }
        pthread_join(tl, NULL);
    } else {
        msort(base, mid, depth);
        msort(base + mid, len - mid, depth);
    }
    merge(base, mid, len);
}

static void *sort_thread(void *p) {
    struct sort_args *a = p;
    msort(a->base, a->len, a->depth);
    return NULL;
}

int main(void) {
    /* A permutation of 0..63: multiply by an odd number modulo 64. */
    for (int i = 0; i < N; i++)
        data[i] = (i * 37 + 11) % N;
    int before = 0;
    for (int i = 0; i < N; i++)
        before += data[i];

    msort(data, N, 0);

    int after = 0;
    for (int i = 0; i < N; i++) {
        after += data[i];
        if (i > 0)
            assert(data[i - 1] <= data[i]);
        assert(data[i] == i);
    }
    assert(before == after);
    printf("sorted %d elements, first %d last %d, checksum %d\n", N, data[0],
           data[N - 1], after);
    return 0;
}
