// causa: expect=bug:assertion-violation
// causa: check=bug
// The setter writes `a` then `b` without a lock; the checker reads both and
// expects both or neither. Reading between the two writes fails, and so
// would reading between them in the other order: writing `b` first is no
// fix, a lock around both writes and both reads is.
#include <assert.h>
#include <pthread.h>

int a, b;

static void *setter(void *arg) {
    (void)arg;
    a = 1;
    b = -1;
    return 0;
}

static void *checker(void *arg) {
    (void)arg;
    int x = a;
    int y = b;
    assert((x == 0 && y == 0) || (x == 1 && y == -1));
    return 0;
}

int main(void) {
    pthread_t s, c;
    pthread_create(&s, 0, setter, 0);
    pthread_create(&c, 0, checker, 0);
    pthread_join(s, 0);
    pthread_join(c, 0);
    return 0;
}
