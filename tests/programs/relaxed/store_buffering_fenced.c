// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=verified
// Store buffering with a full fence between each thread's store and load
// (`mfence` on x86): the store is visible before the load, under every model.

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int x, y;
int a, b;

void *left(void *arg) {
    x = 1;
    atomic_thread_fence(memory_order_seq_cst);
    a = y;
    return 0;
}

void *right(void *arg) {
    y = 1;
    atomic_thread_fence(memory_order_seq_cst);
    b = x;
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, left, 0);
    pthread_create(&q, 0, right, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    assert(a == 1 || b == 1);
    return 0;
}
