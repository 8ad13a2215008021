// causa: expect=bug:assertion-violation
// causa: check=bug
// A producer fills N slots and posts a semaphore per item, but posts before
// it fills the slot; the consumer waits once per item and sums them. When
// the consumer's read of slot 0 comes before the producer's write, the sum
// is short. The consumer's reads of slot 0 and slot 1 are apart by design
// (a wait between them), so this is the early post, not an inconsistent
// snapshot of two objects (which the summary once said).
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

#define N 3
static int slots[N];
static int produced;
static sem_t full;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 0; i < N; i++) {
        sem_post(&full);          /* BUG: posted before the slot is filled */
        slots[i] = i + 1;
        produced++;
    }
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    int sum = 0;
    for (int i = 0; i < N; i++) {
        sem_wait(&full);
        sum += slots[i];
    }
    assert(sum == 6);
    return 0;
}

int main(void) {
    sem_init(&full, 0, 0);
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
