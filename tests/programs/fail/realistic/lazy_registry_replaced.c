// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=47
// Each worker registers its id in a registry created on first use, with a
// check-then-create that is not atomic: two workers can both find no
// registry, and the second one's registry replaces the first's, so one
// registration is lost. Each worker reaches its registry only through the
// published pointer: the explanation named those accesses `0x0`, and made
// main's read of one slot read a worker's write to another.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#define SLOTS 4

struct registry {
    int present[SLOTS];
    int owner[SLOTS];
};

static struct registry *reg;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;

static struct registry *registry(void) {
    if (reg == NULL)                     /* bug: checked ... */
        reg = calloc(1, sizeof *reg);    /* ... and created without a lock */
    return reg;
}

static void *worker(void *arg) {
    int id = (int)(long)arg;
    struct registry *r = registry();
    pthread_mutex_lock(&reg_lock);
    r->present[id] = 1;
    r->owner[id] = id + 10;
    pthread_mutex_unlock(&reg_lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)1L);
    pthread_create(&b, 0, worker, (void *)2L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    for (int id = 1; id <= 2; id++)
        assert(reg->present[id] && reg->owner[id] == id + 10);
    free(reg);
    return 0;
}
