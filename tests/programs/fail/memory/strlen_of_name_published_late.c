// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=32
// Double-checked initialisation that sets its flag before the name: a
// second worker sees the flag, skips the lock, and calls strlen on the
// still-null name. (Explaining it said "strlen through an address computed
// from shared data" was unsupported, or, when the other worker failed,
// that symbolic execution did not reach the failure.)
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static char *name;
static int ready;
static size_t lengths[2];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void init_name(void) {
    if (ready)
        return;
    pthread_mutex_lock(&m);
    if (!ready) {
        ready = 1; /* bug: set before the name */
        name = strdup("server");
    }
    pthread_mutex_unlock(&m);
}

static void *worker(void *arg) {
    long id = (long)arg;
    init_name();
    lengths[id] = strlen(name);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    free(name);
    return 0;
}
