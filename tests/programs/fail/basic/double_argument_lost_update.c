// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=25
// Each thread adds the `double` main passed it (a local of main's, shared
// once its address is) to an unlocked total: one `+=` can overwrite the
// other's.

#include <assert.h>
#include <pthread.h>

static double total;

static void *add(void *arg) {
    total += *(double *)arg;
    return 0;
}

int main(void) {
    double a = 1.5, b = 2.5;
    pthread_t t[2];
    pthread_create(&t[0], 0, add, &a);
    pthread_create(&t[1], 0, add, &b);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    assert(total == 4.0);
    return 0;
}
