// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=19
// Atomicity violation: the writer checks `current` and then reads it again
// to use it; the closer clears and frees it in between. The writer's second
// read sees NULL, or the block already freed. (The use is itself a shared
// access, which the failing run never completes: explain must still work
// on the run's own order.)
#include <pthread.h>
#include <stdlib.h>

struct log { char *buf; int len; };
static struct log *current;

static void *writer(void *arg) {
    (void)arg;
    for (int i = 0; i < 4; i++) {
        if (current != NULL) {
            current->len += 1;
        }
    }
    return 0;
}

static void *closer(void *arg) {
    (void)arg;
    struct log *l = current;
    current = NULL;
    free(l->buf);
    free(l);
    return 0;
}

int main(void) {
    current = malloc(sizeof *current);
    current->buf = malloc(16);
    current->len = 0;
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, closer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
