// causa: expect=bug:assertion-violation
// causa: iterations=3000
// A bounded buffer (CLAP's bbuf): producers and consumers share a ring of
// SIZE slots under one mutex with two condition variables. A consumer waits
// until the buffer is not empty, releases the mutex, and only then takes the
// item in a second critical section (check, then act). Two consumers can both
// see the one item and the second takes an empty slot: the item is 0.

#include <assert.h>
#include <pthread.h>

#ifndef SIZE
#define SIZE 4
#endif
#ifndef ITEMS
#define ITEMS 3
#endif

int buf[SIZE];
int count, in, out;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;

void *producer(void *arg) {
    int base = *(int *)arg;
    for (int i = 0; i < ITEMS; i++) {
        pthread_mutex_lock(&m);
        while (count == SIZE)
            pthread_cond_wait(&not_full, &m);
        buf[in] = base + i;
        in = (in + 1) % SIZE;
        count = count + 1;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    for (int i = 0; i < ITEMS; i++) {
        pthread_mutex_lock(&m);
        while (count == 0)
            pthread_cond_wait(&not_empty, &m);
        pthread_mutex_unlock(&m);
        /* BUG: another consumer may take the item between the check and here */
        pthread_mutex_lock(&m);
        int item = buf[out];
        buf[out] = 0;
        out = (out + 1) % SIZE;
        count = count - 1;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
        assert(item != 0);
    }
    return 0;
}

int main(void) {
    pthread_t p1, p2, c1, c2;
    int b1 = 100, b2 = 200;
    pthread_create(&p1, 0, producer, &b1);
    pthread_create(&p2, 0, producer, &b2);
    pthread_create(&c1, 0, consumer, 0);
    pthread_create(&c2, 0, consumer, 0);
    pthread_join(p1, 0);
    pthread_join(p2, 0);
    pthread_join(c1, 0);
    pthread_join(c2, 0);
    return 0;
}
