// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=36
// A name list initialised on first use, inline, behind an unlocked flag:
// the second thread can test `initialized` before the first sets it, and
// its run of the initialisation resets `count` after the first thread's
// atomic increment, so one name is lost although the increments are
// atomic.
#include <pthread.h>
#include <assert.h>
#include <string.h>

static int initialized;
static char names[2][8];
static int count;

static void *add_name(void *arg) {
    const char *name = arg;
    if (!initialized) {                /* bug: test and set are two steps */
        memset(names, 0, sizeof names);
        count = 0;
        initialized = 1;
    }
    int i = __atomic_fetch_add(&count, 1, __ATOMIC_SEQ_CST);
    strcpy(names[i], name);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, add_name, "ann");
    pthread_create(&b, 0, add_name, "bob");
    pthread_join(a, 0);
    pthread_join(b, 0);
    /* both names are in */
    assert(count == 2);
    return 0;
}
