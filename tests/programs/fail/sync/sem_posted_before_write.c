// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=28
// A pipeline handing items over through a counting semaphore: the producer
// posts each item before it writes it, so the consumer may read the slot
// before it is filled.
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>
#include <stdio.h>

#define ITEMS 3
static int slot[ITEMS];
static sem_t ready;

static void *producer(void *arg) {
    for (int i = 0; i < ITEMS; i++) {
        sem_post(&ready);      /* BUG: announced before it is written */
        slot[i] = 10 * (i + 1);
    }
    return NULL;
}

static void *consumer(void *arg) {
    int sum = 0;
    for (int i = 0; i < ITEMS; i++) {
        sem_wait(&ready);
        assert(slot[i] != 0);
        sum += slot[i];
    }
    printf("sum %d\n", sum);
    return NULL;
}

int main(void) {
    sem_init(&ready, 0, 0);
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    sem_destroy(&ready);
    return 0;
}
