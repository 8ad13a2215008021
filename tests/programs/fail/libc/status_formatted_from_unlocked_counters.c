// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=29
// A status line formatted from two counters a worker updates without a
// lock: the reporter formats `done` and `total` into a status line (the
// values it prints are the run's in every schedule explained) and checks
// done <= total.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

int done, total;
char status[64];

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        done++;
        total++;
    }
    return 0;
}

void *reporter(void *arg) {
    (void)arg;
    int d = done, t = total;
    snprintf(status, sizeof status, "%d/%d", d, t);
    assert(d <= t);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, reporter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    puts(status);
    return 0;
}
