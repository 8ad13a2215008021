// causa: expect=no-bug
// causa: check=verified
// A growable vector shared by two threads: push() reallocates under the
// mutex, so no thread can hold a pointer into the old block while it is
// moved, and all six elements end up in the vector.

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct vec {
    int *data;
    int len;
    int cap;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct vec v = { NULL, 0, 0 };

static void push(struct vec *vec, int x) {
    pthread_mutex_lock(&m);
    if (vec->len == vec->cap) {
        int cap = vec->cap ? vec->cap * 2 : 2;
        int *p = realloc(vec->data, cap * sizeof *p);
        assert(p != NULL);
        vec->data = p;
        vec->cap = cap;
    }
    vec->data[vec->len++] = x;
    pthread_mutex_unlock(&m);
}

void *pusher(void *arg) {
    int base = (int)(long)arg;
    for (int i = 0; i < 3; i++)
        push(&v, base + i);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    v.data = calloc(1, sizeof(int));
    v.cap = 1;
    pthread_create(&a, NULL, pusher, (void *)0L);
    pthread_create(&b, NULL, pusher, (void *)100L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(v.len == 6);
    int sum = 0;
    for (int i = 0; i < v.len; i++)
        sum += v.data[i];
    assert(sum == (0 + 1 + 2) + (100 + 101 + 102));
    free(v.data);
    return 0;
}
