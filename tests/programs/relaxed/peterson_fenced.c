// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=verified
// Peterson's lock with a full fence after each thread's stores to `flag`
// and `turn` (`mfence` on x86), and one before the release: correct under
// SC, TSO and PSO. (Without the release fence PSO can make `flag = 0`
// visible before the critical section's store to `inside`, and the other
// thread enters while `inside` still reads 1.)

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int flag0, flag1, turn, inside;

void *first(void *arg) {
    flag0 = 1;
    turn = 1;
    atomic_thread_fence(memory_order_seq_cst);
    while (flag1 && turn == 1) {
    }
    inside++;
    assert(inside == 1);
    inside--;
    atomic_thread_fence(memory_order_seq_cst);
    flag0 = 0;
    return 0;
}

void *second(void *arg) {
    flag1 = 1;
    turn = 0;
    atomic_thread_fence(memory_order_seq_cst);
    while (flag0 && turn == 0) {
    }
    inside++;
    assert(inside == 1);
    inside--;
    atomic_thread_fence(memory_order_seq_cst);
    flag1 = 0;
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, first, 0);
    pthread_create(&q, 0, second, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
