// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// main copies a shared struct out by value before the setter thread fills
// in its argument. The copy is one 8-byte read stored whole in main's
// frame, and `x.arg` is its upper half. (Symbolic execution read that half
// as 0 whatever the read returned, so explain said the failing run's paths
// alone decided the failure, with no alternate.)
#include <assert.h>
#include <pthread.h>

struct task {
    int id;
    int arg;
};

static struct task slot;

static struct task fetch(void) { return slot; }

static void *setter(void *unused) {
    (void)unused;
    slot.arg = 42;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, setter, 0);
    struct task x = fetch();
    assert(x.arg == 42);
    pthread_join(t, 0);
    return 0;
}
