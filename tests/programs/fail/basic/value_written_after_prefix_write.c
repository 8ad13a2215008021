// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// Found by comparing `causa check` with an exhaustive search on generated
// programs (crates/causa-explore/tests/mcr_fuzz.rs), and kept in this form.
// `writer` computes `level` from `stage`, which `reader` sets; main sets
// `level` too. The failure: `writer` read `stage` before `reader` set it,
// main's write of `level` came before `writer`'s, and `reader` then saw
// `writer`'s level. Before MCR stopped holding a prefix's events in their
// order, `causa check` said verified here: the state where `reader` sees
// writer's level was reached only with main's write placed after it, and
// no later query could move that write back.

#include <assert.h>
#include <pthread.h>

int level, stage, level_seen;

void *reader(void *arg) {
    stage = 2;
    level_seen = level;
    return 0;
}

void *writer(void *arg) {
    level = stage + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, reader, 0);
    pthread_create(&b, 0, writer, 0);
    level = 2;
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(!(level == 1 && level_seen == 1));
    return 0;
}
