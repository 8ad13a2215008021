// causa: expect=no-bug
// causa: check=verified
// The worker returns a heap-allocated result via pthread_exit; main receives
// the pointer from pthread_join, checks it and frees it. The worker never
// touches the block after exiting, so there is no use after free.

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct result {
    int min;
    int max;
};

int data[5] = { 7, -2, 9, 4, 0 };

void *scan(void *arg) {
    (void)arg;
    struct result *r = malloc(sizeof *r);
    if (r == NULL)
        pthread_exit(NULL);
    r->min = data[0];
    r->max = data[0];
    for (int i = 1; i < 5; i++) {
        if (data[i] < r->min)
            r->min = data[i];
        if (data[i] > r->max)
            r->max = data[i];
    }
    pthread_exit(r);
}

int main(void) {
    pthread_t t;
    void *ret = NULL;
    pthread_create(&t, NULL, scan, NULL);
    pthread_join(t, &ret);
    struct result *r = ret;
    assert(r != NULL);
    assert(r->min == -2 && r->max == 9);
    free(r);
    return 0;
}
