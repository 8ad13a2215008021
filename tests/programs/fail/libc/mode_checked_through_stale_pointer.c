// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A worker reads the speed limit and the mode through two pointers that a
// supervisor swaps, one after the other, to the safe configuration. The
// worker is started first and reads the limit before the mode: it can see
// the safe mode with the normal limit and run too fast.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static char modes[2][16] = {"normal", "safe"};
static char limits[2][8] = {"3", "1"};
static const char *mode = modes[0];
static const char *limit = limits[0];

static void *supervisor(void *arg) {
    (void)arg;
    mode = modes[1];
    limit = limits[1];
    return NULL;
}

static void *worker(void *arg) {
    (void)arg;
    const char *l = limit;
    const char *m = mode;
    int speed = atoi(l);
    if (strcmp(m, "safe") == 0) {
        /* in safe mode the worker must not go faster than 1 */
        assert(speed <= 1);
    }
    return NULL;
}

int main(void) {
    pthread_t w, s;
    pthread_create(&w, NULL, worker, NULL);
    pthread_create(&s, NULL, supervisor, NULL);
    pthread_join(w, NULL);
    pthread_join(s, NULL);
    return 0;
}
