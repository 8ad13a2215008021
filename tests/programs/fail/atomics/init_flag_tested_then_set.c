// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=34
// Each starting thread runs the setup unless the flag says it ran: the
// flag is atomic, but its test and its set are two steps, so two threads
// can both find it clear and both register the handler. The fix is to
// claim the flag with a compare-and-swap (or pthread_once), not an atomic
// add.

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int initialised;
static int handlers;

static void setup(void) {
    if (!atomic_load(&initialised)) {
        handlers++;
        atomic_store(&initialised, 1);
    }
}

static void *start(void *arg) {
    (void)arg;
    setup();
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, start, 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    assert(handlers == 1);
    return 0;
}
