// causa: expect=no-bug
// causa: check=verified
// A pthread spin lock protects the counter. Spinning threads make no
// progress while the holder is inside, and every increment happens with the
// lock held, so the final count is exact.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

pthread_spinlock_t spin;
int counter = 0;

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        pthread_spin_lock(&spin);
        counter++;
        pthread_spin_unlock(&spin);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(counter == 4);
    pthread_spin_destroy(&spin);
    return 0;
}
