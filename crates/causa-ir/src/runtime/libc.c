/* The C library functions causa supplies as C code: they call back into
 * the program (a comparison function), so they run as the program's own
 * code, each callback and each access to shared memory a step of the
 * calling thread as in the program. causa links this file into a program
 * that calls one of them and does not define it. */
#include <stddef.h>
#include <string.h>

/* Swap the elements at a and b, `size` bytes, a buffer at a time: one copy
 * of a part of shared memory is one access, as memcpy's is. */
#define SWAP(a, b)                                                           \
    do {                                                                     \
        char *x_ = (a), *y_ = (b);                                           \
        for (size_t left_ = size; left_ > 0;) {                              \
            size_t n_ = left_ < sizeof tmp ? left_ : sizeof tmp;             \
            memcpy(tmp, x_, n_);                                             \
            memcpy(x_, y_, n_);                                              \
            memcpy(y_, tmp, n_);                                             \
            x_ += n_;                                                        \
            y_ += n_;                                                        \
            left_ -= n_;                                                     \
        }                                                                    \
    } while (0)

/* Heapsort: O(n log n) comparisons and no allocation; the order of equal
 * elements is unspecified, as the C standard allows. */
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    char *a = base;
    char tmp[64];
    if (n < 2 || size == 0)
        return;
    /* Build a max-heap, then move its top to the end, n - 1 times. */
    for (size_t phase = 0, start = n / 2, end = n; end > 1;) {
        size_t root;
        if (phase == 0 && start > 0) {
            root = --start;
        } else {
            phase = 1;
            end--;
            SWAP(a, a + end * size);
            root = 0;
        }
        while (2 * root + 1 < end) {
            size_t child = 2 * root + 1;
            if (child + 1 < end && cmp(a + child * size, a + (child + 1) * size) < 0)
                child++;
            if (cmp(a + root * size, a + child * size) >= 0)
                break;
            SWAP(a + root * size, a + child * size);
            root = child;
        }
    }
}

void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    const char *lo = base;
    while (n > 0) {
        const char *mid = lo + (n / 2) * size;
        int c = cmp(key, mid);
        if (c == 0)
            return (void *)mid;
        if (c > 0) {
            lo = mid + size;
            n -= n / 2 + 1;
        } else {
            n /= 2;
        }
    }
    return 0;
}
