// Producer/consumer over a bounded buffer with a mutex and two condition
// variables: 2 producers, 2 consumers, ITEMS items each, WORK steps of
// computation per item on each side (enough that the program is CPU-bound:
// with 50 steps it spent most of its time in futex context switches, and its
// run time varied by 2x from run to run).
#include <pthread.h>
#include <stdio.h>

#ifndef ITEMS
#define ITEMS 100000
#endif
#define CAP 64
#ifndef WORK
#define WORK 400
#endif

static int buf[CAP], head, tail, count;
static long total;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;

static int work(int x) {
    for (int i = 0; i < WORK; i++)
        x = x * 31 + (x >> 3) + i;
    return x & 0xffff;
}

static void *producer(void *arg) {
    for (int i = 0; i < ITEMS; i++) {
        int v = work(i);
        pthread_mutex_lock(&m);
        while (count == CAP)
            pthread_cond_wait(&not_full, &m);
        buf[tail] = v;
        tail = (tail + 1) % CAP;
        count++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

static void *consumer(void *arg) {
    for (int i = 0; i < ITEMS; i++) {
        pthread_mutex_lock(&m);
        while (count == 0)
            pthread_cond_wait(&not_empty, &m);
        int v = buf[head];
        head = (head + 1) % CAP;
        count--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
        v = work(v);
        pthread_mutex_lock(&m);
        total += v;
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t t[4];
    pthread_create(&t[0], 0, producer, 0);
    pthread_create(&t[1], 0, producer, 0);
    pthread_create(&t[2], 0, consumer, 0);
    pthread_create(&t[3], 0, consumer, 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    printf("%ld\n", total);
    return 0;
}
