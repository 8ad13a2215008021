// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=23
// main takes the square root of a shared variance that a worker may or may
// not have updated yet (`sqrt` of a value read from shared memory).
#include <pthread.h>
#include <assert.h>
#include <math.h>

static double var = 4.0;

static void *update(void *arg) {
    (void)arg;
    var = var * 4.0;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, update, 0);
    double sd = sqrt(var);
    pthread_join(t, 0);
    assert(sd > 3.0);
    return 0;
}
