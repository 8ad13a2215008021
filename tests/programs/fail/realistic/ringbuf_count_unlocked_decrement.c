// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=58
// Written by a user-style sweep: a ring buffer whose consumer decrements
// the count without the producer's lock (a lost update: an item is neither
// consumed nor left). check's schedule is explained by main's loop over
// the count taking the other way; the reads main runs after that loop on
// its new path were said not to run.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define CAP 4
#define N 3

static int buf[CAP];
static int head, tail, count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int consumed_sum;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= N; i++) {
        pthread_mutex_lock(&lock);
        if (count < CAP) {
            buf[tail] = i;
            tail = (tail + 1) % CAP;
            count++;
        }
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void *consumer(void *arg) {
    (void)arg;
    for (int i = 0; i < N; i++) {
        if (count > 0) {
            int v = buf[head];
            head = (head + 1) % CAP;
            count--; /* BUG: not under lock */
            consumed_sum += v;
        }
    }
    return NULL;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    int left = 0;
    for (int i = 0; i < count; i++)
        left += buf[(head + i) % CAP];
    printf("consumed %d, left %d, count %d\n", consumed_sum, left, count);
    assert(consumed_sum + left == N * (N + 1) / 2);
    return 0;
}
