// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=20
// A cache filled on first use: each reader takes the read lock and, when
// the cache is empty, asks for the write lock without releasing the read
// lock. A read-write lock cannot be upgraded: the thread waits for itself
// (and here the two readers also wait for each other).

#include <pthread.h>
#include <stdio.h>

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static int cache_valid;
static int cache_value;

static void *lookup(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&lock);
    if (!cache_valid) {
        pthread_rwlock_wrlock(&lock); /* bug: upgrading a read lock */
        cache_value = 42;
        cache_valid = 1;
        pthread_rwlock_unlock(&lock);
    }
    int v = cache_value;
    pthread_rwlock_unlock(&lock);
    printf("%d\n", v);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, lookup, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    return 0;
}
