// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// main starts a worker to reset a statistics table in the background and
// goes on reporting from the table without waiting for it (the worker is
// detached, never joined). The report can see the table half reset. The
// first execution of `causa check` runs main to its end before the worker
// ever starts; the worker's writes are in no trace of that execution, so
// the check must run the worker before main exits to see them.

#include <assert.h>
#include <pthread.h>

int hits[2] = {5, 5};

void *reset(void *arg) {
    (void)arg;
    hits[0] = 0;
    hits[1] = 0;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reset, 0);
    pthread_detach(t);
    int first = hits[0];
    int second = hits[1];
    // The report's rows must agree: both before the reset or both after.
    // (One failing order: main reads hits[0], the worker resets both, main
    // reads hits[1].)
    assert(first == second);
    return 0;
}
