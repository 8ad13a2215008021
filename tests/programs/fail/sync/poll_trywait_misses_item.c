// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// A poller takes a ready item with sem_trywait; when none is ready it
// counts a miss. main expects no miss, but the poller may look before
// the producer has posted.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t ready;
int item, got, missed;

static void *producer(void *arg) {
    (void)arg;
    item = 42;
    sem_post(&ready);
    return 0;
}

static void *poller(void *arg) {
    (void)arg;
    if (sem_trywait(&ready) == 0)
        got = item;
    else
        missed = 1;
    return 0;
}

int main(void) {
    pthread_t p, c;
    sem_init(&ready, 0, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, poller, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    assert(!missed);
    return 0;
}
