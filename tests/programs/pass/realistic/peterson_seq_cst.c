// causa: expect=no-bug
// causa: check=verified
// causa: check-cflags=-DROUNDS=1
// causa: stdout=counter 6, entries 0:3 1:3
// Peterson's mutual exclusion algorithm for two threads, written with C11
// seq_cst atomics for the flags and the turn variable. Each thread enters the
// critical section three times; inside, it checks that it is alone (an
// `in_cs` occupancy counter) and increments a plain shared counter. Under
// sequential consistency (the only model causa uses) the algorithm is
// correct, so the occupancy check never fails and no increment is lost.

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#ifndef ROUNDS
#define ROUNDS 3
#endif

static atomic_int flag[2];
static atomic_int turn;
static int in_cs;   /* plain: protected by the algorithm itself */
static int counter; /* plain: protected by the algorithm itself */
static int entries[2];

static void lock(int self) {
    int other = 1 - self;
    atomic_store_explicit(&flag[self], 1, memory_order_seq_cst);
    atomic_store_explicit(&turn, other, memory_order_seq_cst);
    while (atomic_load_explicit(&flag[other], memory_order_seq_cst) &&
           atomic_load_explicit(&turn, memory_order_seq_cst) == other) {
        /* busy wait */
    }
}

static void unlock(int self) {
    atomic_store_explicit(&flag[self], 0, memory_order_seq_cst);
}

static void critical_section(int self) {
    in_cs++;
    assert(in_cs == 1);
    int c = counter;
    counter = c + 1;
    entries[self]++;
    assert(in_cs == 1);
    in_cs--;
}

static void *worker(void *arg) {
    int self = (int)(long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        lock(self);
        critical_section(self);
        unlock(self);
    }
    return NULL;
}

int main(void) {
    pthread_t t0, t1;
    atomic_init(&flag[0], 0);
    atomic_init(&flag[1], 0);
    atomic_init(&turn, 0);
    pthread_create(&t0, NULL, worker, (void *)0L);
    pthread_create(&t1, NULL, worker, (void *)1L);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    assert(counter == 2 * ROUNDS);
    assert(in_cs == 0);
    printf("counter %d, entries 0:%d 1:%d\n", counter, entries[0], entries[1]);
    return 0;
}
