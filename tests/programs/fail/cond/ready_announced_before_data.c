// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=33
// The producer announces `ready` under the lock and signals, but fills the
// table only after it lets go of the lock: the consumer, woken (or finding
// `ready` already set), sums a table that is not filled yet.
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

static bool ready;
static int data[3];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = true;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    for (int i = 0; i < 3; i++) data[i] = i + 1;
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready) pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    int s = 0;
    for (int i = 0; i < 3; i++) s += data[i];
    assert(s == 6);
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&q, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
