// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// Three threads bump a shared counter without a lock and return the value
// they stored; main joins them into a global table of results and checks
// that the largest is the number of threads. A lost update leaves every
// result below it.
#include <pthread.h>
#include <assert.h>
#include <stdint.h>

#define N 3
static int counter;
static void *results[N];

static void *bump(void *arg) {
    (void)arg;
    int v = counter;
    counter = v + 1;
    return (void *)(intptr_t)(v + 1);
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++) pthread_create(&t[i], NULL, bump, NULL);
    for (int i = 0; i < N; i++) pthread_join(t[i], &results[i]);
    intptr_t biggest = 0;
    for (int i = 0; i < N; i++)
        if ((intptr_t)results[i] > biggest)
            biggest = (intptr_t)results[i];
    assert(biggest == N);
    return 0;
}
