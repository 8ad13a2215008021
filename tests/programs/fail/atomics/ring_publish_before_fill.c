// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// A single-producer single-consumer ring whose producer advances `tail`
// (atomically) before it fills the slot: the consumer sees the new tail
// and reads a slot that is not written yet. Filling the slot first and
// publishing `tail` last is the fix.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
#include <sched.h>

#define N 4
static int slots[N];
static atomic_int tail;
static int head;

static void *producer(void *a) {
    (void)a;
    for (int i = 1; i <= 3; i++) {
        int t = atomic_load(&tail);
        atomic_store(&tail, t + 1);   /* bug: published before the slot is filled */
        slots[t % N] = i * 10;
    }
    return 0;
}

static void *consumer(void *a) {
    (void)a;
    int got = 0;
    while (got < 3) {
        if (head == atomic_load(&tail)) {
            sched_yield();
            continue;
        }
        int v = slots[head % N];
        assert(v == (head + 1) * 10);
        head++;
        got++;
    }
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
