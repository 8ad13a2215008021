// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=28
// A writer updates a shared two-field setting one field at a time. The
// reader takes "differs from the old setting" (a memcmp of shared memory,
// one scheduling point) to mean "the new setting is in place", and finds
// the second field still old.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct setting { int low, high; };
struct setting current = {1, 2};

void *widen(void *arg) {
    (void)arg;
    current.low = 0;
    current.high = 3;
    return 0;
}

int main(void) {
    pthread_t t;
    struct setting before = {1, 2};
    pthread_create(&t, 0, widen, 0);
    if (memcmp(&current, &before, sizeof current) != 0) {
        /* changed: the new setting must be complete */
        assert(current.high == 3);
    }
    pthread_join(t, 0);
    return 0;
}
