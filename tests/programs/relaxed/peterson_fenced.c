// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=bug:assertion-violation
// Peterson's lock with a full fence after each thread's stores to `flag`
// and `turn` (`mfence` on x86), and one before the release: correct under
// SC and TSO. Under PSO it fails: stores to two addresses may become
// visible in either order before the fence, so `second`'s `turn = 0` can
// be seen before its `flag1 = 1`; `first` then reads `flag1` as 0 and
// enters, and `second` enters too, having seen `turn == 1`.
// (peterson_fenced_pso.c adds the fence between the two stores.) Until
// MCR stopped holding a prefix's events in their order, `causa check`
// said verified here under PSO; `causa test --memory-model pso` finds it.

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
