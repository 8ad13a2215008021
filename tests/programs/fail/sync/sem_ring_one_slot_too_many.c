// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=52
// A ring of two slots between one producer and one consumer, with a
// semaphore for the free slots and one for the filled ones; the free one
// starts at 3, one more than the ring has, so the producer can come round
// to a slot the consumer has not read yet and overwrite its item.

#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

#define SLOTS 2
#define ITEMS 4

static int ring[SLOTS];
static int head, tail;
static sem_t filled, empty;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= ITEMS; i++) {
        sem_wait(&empty);
        ring[head] = i;
        head = (head + 1) % SLOTS;
        sem_post(&filled);
    }
    return 0;
}

static void *consumer(void *arg) {
    int sum = 0;
    for (int i = 0; i < ITEMS; i++) {
        sem_wait(&filled);
        sum += ring[tail];
        tail = (tail + 1) % SLOTS;
        sem_post(&empty);
    }
    *(int *)arg = sum;
    return 0;
}

int main(void) {
    int sum = 0;
    sem_init(&filled, 0, 0);
    sem_init(&empty, 0, SLOTS + 1);
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, &sum);
    pthread_join(p, 0);
    pthread_join(c, 0);
    assert(sum == 1 + 2 + 3 + 4);
    return 0;
}
