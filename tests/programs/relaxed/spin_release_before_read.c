// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: tso=bug:assertion-violation
// causa: pso=bug:assertion-violation
// A hand-over through a flag, both sides waiting in a busy loop: the
// consumer hands the flag back (2) before it reads the data, so the producer
// may overwrite the data first. A bug in every memory model; under TSO
// `check` said "verified": a parked busy wait's next step was taken to be
// its thread's next flush of a buffered store.
#include <assert.h>
#include <pthread.h>

volatile int flag;
int data;

static void *producer(void *arg) {
    (void)arg;
    data = 1;
    flag = 1;
    while (flag != 2)
        ;
    data = 2;
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    while (flag != 1)
        ;
    flag = 2; /* bug: released before the data is read */
    int v = data;
    assert(v == 1);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
