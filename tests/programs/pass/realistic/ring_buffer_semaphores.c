// causa: expect=no-bug
// causa: check=verified
// causa: check-cflags=-DPER_PRODUCER=1
// causa: stdout=produced 10 items, consumed 10 items, sum 130
// Bounded ring buffer of 3 slots with the classic two-semaphore scheme:
// `empty` counts free slots, `full` counts filled ones, and a mutex guards
// the head/tail indices. Two producers put 5 items each, two consumers take
// 5 items each. Every item is consumed exactly once, so the consumed sum
// equals the produced sum and the semaphores end at their initial values.

#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#ifndef SLOTS
#define SLOTS 3
#endif
#ifndef PER_PRODUCER
#define PER_PRODUCER 5
#endif
#ifndef NPROD
#define NPROD 2
#endif
#ifndef NCONS
#define NCONS 2
#endif

struct ring {
    int buf[SLOTS];
    int head; /* next slot to read */
    int tail; /* next slot to write */
    int used;
    sem_t empty;
    sem_t full;
    pthread_mutex_t lock;
};

static struct ring rb;
static int produced_sum[NPROD];
static int consumed_sum[NCONS];
static int consumed_count[NCONS];

static void ring_init(struct ring *r) {
    r->head = r->tail = r->used = 0;
    sem_init(&r->empty, 0, SLOTS);
    sem_init(&r->full, 0, 0);
    pthread_mutex_init(&r->lock, NULL);
}

static void ring_put(struct ring *r, int v) {
    sem_wait(&r->empty);
    pthread_mutex_lock(&r->lock);
    assert(r->used < SLOTS);
    r->buf[r->tail] = v;
    r->tail = (r->tail + 1) % SLOTS;
    r->used++;
    pthread_mutex_unlock(&r->lock);
    sem_post(&r->full);
}

static int ring_get(struct ring *r) {
    sem_wait(&r->full);
    pthread_mutex_lock(&r->lock);
    assert(r->used > 0);
    int v = r->buf[r->head];
    r->buf[r->head] = -1; /* poison the slot */
    r->head = (r->head + 1) % SLOTS;
    r->used--;
    pthread_mutex_unlock(&r->lock);
    sem_post(&r->empty);
    return v;
}

static void *producer(void *arg) {
    int id = (int)(long)arg;
    for (int i = 1; i <= PER_PRODUCER; i++) {
        int item = id == 0 ? i : i + 20; /* 1..5 and 21..25: never -1 */
        ring_put(&rb, item);
        produced_sum[id] += item;
    }
    return NULL;
}

static void *consumer(void *arg) {
    int id = (int)(long)arg;
    for (int i = 0; i < PER_PRODUCER; i++) {
        int v = ring_get(&rb);
        assert(v > 0);
        consumed_sum[id] += v;
        consumed_count[id]++;
    }
    return NULL;
}

int main(void) {
    pthread_t prod[NPROD], cons[NCONS];
    ring_init(&rb);
    for (long i = 0; i < NCONS; i++)
        pthread_create(&cons[i], NULL, consumer, (void *)i);
    for (long i = 0; i < NPROD; i++)
        pthread_create(&prod[i], NULL, producer, (void *)i);
    for (int i = 0; i < NPROD; i++)
        pthread_join(prod[i], NULL);
    for (int i = 0; i < NCONS; i++)
        pthread_join(cons[i], NULL);

    int psum = produced_sum[0] + produced_sum[1];
    int csum = consumed_sum[0] + consumed_sum[1];
    int ccount = consumed_count[0] + consumed_count[1];
    assert(psum == csum);
    assert(ccount == NPROD * PER_PRODUCER);
    assert(rb.used == 0 && rb.head == rb.tail);
    int e, f;
    sem_getvalue(&rb.empty, &e);
    sem_getvalue(&rb.full, &f);
    assert(e == SLOTS && f == 0);
    printf("produced %d items, consumed %d items, sum %d\n", NPROD * PER_PRODUCER,
           ccount, csum);
    sem_destroy(&rb.empty);
    sem_destroy(&rb.full);
    pthread_mutex_destroy(&rb.lock);
    return 0;
}
