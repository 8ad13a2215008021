// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=49
// A ring of two slots between one producer and two consumers, counted
// with semaphores: the slots are handed out right, but the consumers share
// the read index `out` without a lock, so both can take the same slot and
// the sum of what they took is wrong.
#include <pthread.h>
#include <semaphore.h>
#include <assert.h>

static sem_t slots, items;
static int buf[2], in, out;

static void *prod(void *arg) {
    (void)arg;
    for (int i = 1; i <= 4; i++) {
        sem_wait(&slots);
        buf[in] = i;
        in = (in + 1) % 2;
        sem_post(&items);
    }
    return 0;
}

static void *cons(void *arg) {
    (void)arg;
    int sum = 0;
    for (int i = 0; i < 2; i++) {
        sem_wait(&items);
        sum += buf[out];
        out = (out + 1) % 2;
        sem_post(&slots);
    }
    return (void *)(long)sum;
}

int main(void) {
    sem_init(&slots, 0, 2);
    sem_init(&items, 0, 0);
    pthread_t p, c1, c2;
    void *r1, *r2;
    pthread_create(&p, 0, prod, 0);
    pthread_create(&c1, 0, cons, 0);
    pthread_create(&c2, 0, cons, 0);
    pthread_join(p, 0);
    pthread_join(c1, &r1);
    pthread_join(c2, &r2);
    assert((long)r1 + (long)r2 == 10);
    return 0;
}
