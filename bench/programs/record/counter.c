// Race-heavy counter loop: 4 threads increment a shared counter without a
// lock (lost updates are expected: the result is not checked), with a
// data-dependent branch per iteration.
#include <pthread.h>
#include <stdio.h>

#ifndef LOOPS
#define LOOPS 20000000
#endif

static volatile long counter, odd;

static void *run(void *arg) {
    for (long i = 0; i < LOOPS; i++) {
        counter = counter + 1;
        if (i & 1)
            odd = odd + 1;
    }
    return 0;
}

int main(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, run, 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    printf("%ld %ld\n", counter > 0, odd > 0);
    return 0;
}
