// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=35
// A one-slot buffer guarded by two semaphores whose starting counts are
// swapped: `empty` starts at 0 and `full` at 1, so the consumer takes the
// slot before the producer has filled it and the sum is short, in every
// order. The summary said only that no order avoids the failure; it now
// says which order every schedule keeps and that the semaphores' starting
// counts force it.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

int slot = 0;
sem_t empty, full;

void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 2; i++) {
        sem_wait(&empty);
        slot = i;
        sem_post(&full);
    }
    return 0;
}

void *consumer(void *arg) {
    (void)arg;
    int sum = 0;
    for (int i = 0; i < 2; i++) {
        sem_wait(&full);
        sum += slot;
        sem_post(&empty);
    }
    assert(sum == 3);
    return 0;
}

int main(void) {
    sem_init(&empty, 0, 0);
    sem_init(&full, 0, 1);
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
