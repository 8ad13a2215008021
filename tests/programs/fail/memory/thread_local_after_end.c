// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=26
// The producer fills its thread-local scratch array and publishes its
// address, then ends: a thread's thread-local variables end with it. The
// consumer is fine when it reads through the pointer before the producer
// ends, and reads dead storage when it comes after.

#include <pthread.h>
#include <stdio.h>

static __thread int scratch[4];
static int *volatile shared_result;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 0; i < 4; i++) scratch[i] = i * 10;
    shared_result = scratch; /* bug: points into this thread's own storage */
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    int *p;
    while ((p = shared_result) == 0) {}
    printf("%d\n", p[3]);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, producer, 0);
    pthread_create(&b, 0, consumer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
