// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=27
// A reader copies a shared struct (clang emits llvm.memcpy for the assignment)
// while a writer updates it field by field: the copy can see a torn pair. The
// copy of shared memory is a scheduling point of its own, one bulk access the
// solver models word by word.
#include <assert.h>
#include <pthread.h>

struct pair { long lo, hi; };
static struct pair shared = {1, 1};

static void *writer(void *arg) {
    (void)arg;
    shared.lo = 2;
    shared.hi = 2;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    struct pair copy = shared;
    pthread_join(t, 0);
    // The copy can be {1,1}, {2,2} or the torn {2,1}; the program assumes it is never torn.
    assert(copy.lo == copy.hi);
    return 0;
}
