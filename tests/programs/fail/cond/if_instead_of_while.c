// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=22
// Consumers re-check the queue with `if` instead of `while`. A broadcast for
// one item can wake both consumers; the second one then takes from an empty
// queue. The producer makes two items, so no consumer can wait forever.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
int items = 0;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (items == 0)
        pthread_cond_wait(&nonempty, &m);
    items--;
    assert(items >= 0);
    pthread_mutex_unlock(&m);
    return NULL;
}

void *producer(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        pthread_mutex_lock(&m);
        items++;
        pthread_cond_broadcast(&nonempty);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void) {
    pthread_t c1, c2, p;
    pthread_create(&c1, NULL, consumer, NULL);
    pthread_create(&c2, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(c1, NULL);
    pthread_join(c2, NULL);
    pthread_join(p, NULL);
    return 0;
}
