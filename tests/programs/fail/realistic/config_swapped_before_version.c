// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=22
// The reloader installs the new configuration and then bumps the version;
// a worker started before it reads the configuration pointer and then the
// version, without a lock, and can see the new configuration with the old
// version. (Symbolic execution follows the worker first: the pointer's
// new value, which the reloader writes, is known only on a second pass.)
#include <assert.h>
#include <pthread.h>

struct config { int version; int limit; };
static struct config configs[2] = {{1, 10}, {2, 4}};
static struct config *current = &configs[0];
static int version = 1;

static void *worker(void *arg) {
    (void)arg;
    struct config *c = current;
    int v = version;
    /* a configuration newer than the version seen is not ready for use */
    assert(c->version <= v);
    return NULL;
}

static void *reloader(void *arg) {
    (void)arg;
    current = &configs[1];
    version = 2;
    return NULL;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, NULL, worker, NULL);
    pthread_create(&r, NULL, reloader, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    return 0;
}
