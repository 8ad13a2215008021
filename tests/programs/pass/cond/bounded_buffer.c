// causa: expect=no-bug
// causa: check=verified
// Two producers and one consumer share a 2-slot ring buffer guarded by one
// mutex and two condition variables. Every wait re-checks its predicate in a
// `while` loop, so the buffer never over- or underflows and the consumer
// receives every item exactly once.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define SIZE 2
#define PER_PRODUCER 2

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
int buf[SIZE];
int head = 0, tail = 0, count = 0;

static void put(int v) {
    pthread_mutex_lock(&m);
    while (count == SIZE)
        pthread_cond_wait(&not_full, &m);
    buf[tail] = v;
    tail = (tail + 1) % SIZE;
    count++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&m);
}

static int get(void) {
    pthread_mutex_lock(&m);
    while (count == 0)
        pthread_cond_wait(&not_empty, &m);
    int v = buf[head];
    head = (head + 1) % SIZE;
    count--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&m);
    return v;
}

void *producer(void *arg) {
    int base = (int)(long)arg;
    for (int i = 1; i <= PER_PRODUCER; i++)
        put(base + i);
    return NULL;
}

void *consumer(void *arg) {
    int *sum = arg;
    for (int i = 0; i < 2 * PER_PRODUCER; i++)
        *sum += get();
    return NULL;
}

int main(void) {
    pthread_t p1, p2, c;
    int sum = 0;
    pthread_create(&c, NULL, consumer, &sum);
    pthread_create(&p1, NULL, producer, (void *)0L);
    pthread_create(&p2, NULL, producer, (void *)10L);
    pthread_join(p1, NULL);
    pthread_join(p2, NULL);
    pthread_join(c, NULL);
    assert(sum == (1 + 2) + (11 + 12));
    assert(count == 0);
    return 0;
}
