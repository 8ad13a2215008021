// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// A log appended under a lock made by hand: wait while `busy` is set, then
// set it. The wait and the set are two steps, so two writers can both see
// the flag clear, both enter, and take the same slot. The race shows on
// `used`; the fix is the lock, taken with one atomic exchange.

#include <assert.h>
#include <pthread.h>

volatile int busy;
int slots[4];
int used;

static void append(int v) {
    while (busy)
        ;
    busy = 1;
    slots[used] = v;
    used = used + 1;
    busy = 0;
}

static void *writer(void *arg) {
    append(*(int *)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int x = 5, y = 7;
    pthread_create(&a, 0, writer, &x);
    pthread_create(&b, 0, writer, &y);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(used == 2 && slots[0] + slots[1] == 12);
    return 0;
}
