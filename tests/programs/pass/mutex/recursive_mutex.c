// causa: expect=no-bug
// causa: check=verified
// add_all() holds a recursive mutex and calls add(), which locks it again.
// A recursive mutex may be relocked by its owner, so there is no deadlock,
// and the lock count returns to zero before the other thread can enter.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t m;
int total = 0;

static void add(int v) {
    pthread_mutex_lock(&m);
    total += v;
    pthread_mutex_unlock(&m);
}

static void add_all(const int *v, int n) {
    pthread_mutex_lock(&m);
    for (int i = 0; i < n; i++)
        add(v[i]);
    pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
    int values[2] = { 1, 2 };
    (void)arg;
    add_all(values, 2);
    return NULL;
}

int main(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &attr);
    pthread_mutexattr_destroy(&attr);

    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(total == 6);
    pthread_mutex_destroy(&m);
    return 0;
}
