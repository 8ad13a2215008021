// causa: expect=no-bug
// causa: check=verified
// The consumer polls a flag under the lock (lock, read, unlock, round and
// round) until the producer, which filled the data first, sets it. `check`
// parks the polling loop at its unlock until another thread changes what it
// looked at, so every execution ends and the program is verified (without
// that, every execution ran to --max-steps and the verdict was unknown).
#include <assert.h>
#include <pthread.h>

static int flag, data;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *producer(void *arg) {
    (void)arg;
    data = 42;
    pthread_mutex_lock(&m);
    flag = 1;
    pthread_mutex_unlock(&m);
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
