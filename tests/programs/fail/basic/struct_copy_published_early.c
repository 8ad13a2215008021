// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42
// A producer publishes a task (sets `ready`) before it fills in the task's
// argument; the consumer copies the task out by value and finds the
// argument unset. The copy is a small struct returned whole: the consumer's
// `t.arg` is the upper half of a 64-bit value. (Symbolic execution read that
// half of a value stored whole on the stack as 0, so no schedule avoided
// the failure in its model.)
#include <assert.h>
#include <pthread.h>
#include <sched.h>

struct task {
    int id;
    int arg;
};

static struct task slot;
static int ready;

static void *producer(void *unused) {
    (void)unused;
    slot.id = 7;
    ready = 1; /* bug: published before the argument is set */
    slot.arg = 42;
    return 0;
}

static struct task fetch(void) {
    struct task t;
    t.id = slot.id;
    t.arg = slot.arg;
    return t;
}

static void *consumer(void *unused) {
    (void)unused;
    while (!ready)
        sched_yield();
    struct task t = fetch();
    assert(t.arg == 42);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
