// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: tso=bug:assertion-violation
// causa: pso=bug:assertion-violation
// An unprotected increment loses an update under every memory model.

#include <assert.h>
#include <pthread.h>

int count;

void *inc(void *arg) {
    int t = count;
    count = t + 1;
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, inc, 0);
    pthread_create(&q, 0, inc, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    assert(count == 2);
    return 0;
}
