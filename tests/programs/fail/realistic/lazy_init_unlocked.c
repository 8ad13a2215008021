// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=39
// Lazy initialisation without a lock: both workers can find `stats` null,
// each creates its own block, and one worker's hit goes to the block main
// never reads. Only another path avoids it (the second worker finds the
// first one's block), so the explanation flips that branch: its read of
// `stats` sees the other worker's store there.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct stats { int hits; pthread_mutex_t m; };
static struct stats *stats;

static struct stats *get_stats(void) {
    if (!stats) {                      /* bug: check-then-create without a lock */
        struct stats *s = malloc(sizeof *s);
        s->hits = 0;
        pthread_mutex_init(&s->m, 0);
        stats = s;
    }
    return stats;
}

static void *worker(void *arg) {
    (void)arg;
    struct stats *s = get_stats();
    pthread_mutex_lock(&s->m);
    s->hits++;
    pthread_mutex_unlock(&s->m);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(stats->hits == 2);
    return 0;
}
