// causa: expect=no-bug
// causa: check=verified
// A writer moves units between two fields under the write lock; two readers
// check under the read lock that the sum is unchanged. Readers may overlap
// each other but never the writer, so they never see a half-done update.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int left = 10;
int right = 0;

void *writer(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        pthread_rwlock_wrlock(&lock);
        left -= 3;
        right += 3;
        pthread_rwlock_unlock(&lock);
    }
    return NULL;
}

void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&lock);
    int l = left;
    int r = right;
    pthread_rwlock_unlock(&lock);
    assert(l + r == 10);
    return NULL;
}

int main(void) {
    pthread_t w, r1, r2;
    pthread_create(&r1, NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r2, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    assert(left == 4 && right == 6);
    pthread_rwlock_destroy(&lock);
    return 0;
}
