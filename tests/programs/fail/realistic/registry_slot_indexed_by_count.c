// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=44
// Sessions create a shared registry lazily without a lock, then record
// themselves in the slot its user count names, under the lock. Two
// sessions can both see no registry and each publish its own: one
// session's registration lands in a registry that is then replaced.
// (The solver said "no schedule of the recorded paths reaches the
// failure": the slot's address is a pointer read from `reg` plus an index
// read through that pointer, and no slot of the registry was a candidate.)
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct registry {
    int users;
    int ids[4];
};
static struct registry *reg;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *session(void *arg) {
    int id = *(int *)arg;
    if (reg == NULL) {
        struct registry *r = malloc(sizeof *r);
        r->users = 0;
        reg = r;
    }
    struct registry *r = reg;
    pthread_mutex_lock(&m);
    r->ids[r->users] = id;
    r->users++;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    int ida = 1, idb = 2;
    pthread_create(&a, NULL, session, &ida);
    pthread_create(&b, NULL, session, &idb);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(reg->users == 2);
    return 0;
}
