// causa: expect=bug:deadlock
// causa: check=bug
// A bounded buffer with two counting semaphores, `empty` (free slots) and
// `full` (items). The producer posts `empty` after filling a slot where it
// means `full`: the consumer waits on `full` forever, in every order.

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define N 2
int buf[N];
sem_t empty, full;

void *producer(void *arg) {
    (void)arg;
    for (int i = 0; i < 4; i++) {
        sem_wait(&empty);
        buf[i % N] = i;
        sem_post(&empty); /* bug: should post `full` */
    }
    return NULL;
}

void *consumer(void *arg) {
    (void)arg;
    int sum = 0;
    for (int i = 0; i < 4; i++) {
        sem_wait(&full);
        sum += buf[i % N];
        sem_post(&empty);
    }
    printf("sum %d\n", sum);
    return NULL;
}

int main(void) {
    sem_init(&empty, 0, N);
    sem_init(&full, 0, 0);
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    return 0;
}
