// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=38
// Found by comparing `causa check` with an exhaustive search on generated
// programs (crates/causa-explore/tests/mcr_fuzz.rs), and kept in this form.
// Two workers and main write `owner` and `version` with no lock; the first
// worker also records the version it saw. The failure needs the first
// worker's owner to be the last one written, main's version reset to be the
// last one written after the second worker's, and the first worker to have
// seen version 0. Before MCR stopped holding a prefix's events in their
// order, `causa check` said verified here: the two final reads after the
// joins had their prefix with both writes of `version` in one order.

#include <assert.h>
#include <pthread.h>

int owner, version, seen;

void *first(void *arg) {
    owner = 1;
    seen = version;
    return 0;
}

void *second(void *arg) {
    owner = 2;
    version = 2;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, first, 0);
    pthread_create(&b, 0, second, 0);
    version = 0;
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(!(owner == 1 && version == 0 && seen == 0));
    return 0;
}
