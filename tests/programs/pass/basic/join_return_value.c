// causa: expect=no-bug
// causa: check=verified
// Each thread sums a slice of an array and returns the partial sum through
// its return value; pthread_join hands it back to main. Thread arguments and
// results are passed by value, so nothing is shared while the threads run.

#include <assert.h>
#include <pthread.h>
#include <stdint.h>

int values[6] = { 1, 2, 3, 4, 5, 6 };

void *sum_slice(void *arg) {
    int start = (int)(intptr_t)arg;
    int sum = 0;
    for (int i = start; i < start + 3; i++)
        sum += values[i];
    return (void *)(intptr_t)sum;
}

int main(void) {
    pthread_t a, b;
    void *ra = NULL, *rb = NULL;
    pthread_create(&a, NULL, sum_slice, (void *)(intptr_t)0);
    pthread_create(&b, NULL, sum_slice, (void *)(intptr_t)3);
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    assert((int)(intptr_t)ra == 6);
    assert((int)(intptr_t)rb == 15);
    return 0;
}
