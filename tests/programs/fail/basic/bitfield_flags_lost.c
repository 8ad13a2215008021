// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=36
// Two threads each set their own bit-field of a status word, without a
// lock: `ready` and `dirty` are different fields, but bit-fields share a
// memory location, and each assignment reads and rewrites the whole byte,
// so one thread's bit can be lost.
#include <pthread.h>
#include <assert.h>

struct status {
    unsigned ready : 1;
    unsigned dirty : 1;
    unsigned count : 6;
};
static struct status st;

static void *loader(void *arg) {
    (void)arg;
    st.ready = 1;
    return 0;
}

static void *editor(void *arg) {
    (void)arg;
    st.dirty = 1;
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, loader, 0);
    pthread_create(&t2, 0, editor, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(st.ready && st.dirty);
    return 0;
}
