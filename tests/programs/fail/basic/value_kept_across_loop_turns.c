// causa: expect=bug:assertion-violation
// causa: check=bug
// A worker keeps its progress in `cur`: each turn of its loop reads it,
// checks it is the turn's number, and writes the next one at the end. A
// reset thread writes 0 without any lock; landing between one turn's write
// and the next turn's read, it breaks the check. The two accesses that must
// not be split are the end of one turn and the start of the next: no block
// of lines made atomic keeps them together, and the explanation says so
// (it once said "making lines 9–11 atomic avoids the failure").
#include <assert.h>
#include <pthread.h>

int cur;

static void *worker(void *arg) {
    (void)arg;
    for (int k = 0; k < 2; k++) {
        int mine = cur;
        assert(mine == k);
        cur = k + 1;
    }
    return 0;
}

static void *reset(void *arg) {
    (void)arg;
    cur = 0;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, reset, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
