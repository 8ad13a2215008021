// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: iterations=20000
// Two threads chase each other without a lock: one sets `i = j + 1`, the
// other `j = i + 1`, three times each. Only a strict alternation drives `j`
// to 12; most orders make a thread write the same value twice in a row.
// `check` must tell those equal writes apart (which one a read sees decides
// where the other thread's next update falls): it said "verified" when it
// asked only for other values.
#include <assert.h>
#include <pthread.h>

#define ROUNDS 3
int i = 3, j = 6;

static void *chase_i(void *arg) {
    (void)arg;
    for (int k = 0; k < ROUNDS; k++)
        i = j + 1;
    return 0;
}

static void *chase_j(void *arg) {
    (void)arg;
    for (int k = 0; k < ROUNDS; k++)
        j = i + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, chase_i, 0);
    pthread_create(&b, 0, chase_j, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(i < 2 * ROUNDS + 6 && j < 2 * ROUNDS + 6);
    return 0;
}
