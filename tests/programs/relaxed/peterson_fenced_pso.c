// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=verified
// peterson_fenced.c with a fence between each thread's stores to `flag`
// and `turn` as well: under PSO the flag is then visible before the turn,
// and the lock is correct under SC, TSO and PSO.

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int flag0, flag1, turn, inside;

void *first(void *arg) {
    flag0 = 1;
    atomic_thread_fence(memory_order_seq_cst);
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
    atomic_thread_fence(memory_order_seq_cst);
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
