// causa: expect=bug:assertion-violation
// causa: check=bug
// The consumer polls a flag under the lock (lock, read, unlock, round and
// round); the producer sets the flag before it fills the data, outside the
// lock, so the consumer can read the data too early. `check` parks the
// polling loop at its unlock, so its executions end and the bug is found
// (before, every execution ran to --max-steps).
#include <assert.h>
#include <pthread.h>

static int flag, data;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    flag = 1; /* BUG: published before the data */
    pthread_mutex_unlock(&m);
    data = 42;
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&m);
        int f = flag;
        pthread_mutex_unlock(&m);
        if (f)
            break;
    }
    assert(data == 42);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
