// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=29
// The mover updates both coordinates under the write lock; the viewer
// reads them without the read lock, and can see x from one update and y
// from the one before.
#include <pthread.h>
#include <assert.h>

struct point { int x, y; };
static struct point pos;
static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;

static void *mover(void *arg) {
    (void)arg;
    for (int i = 1; i <= 2; i++) {
        pthread_rwlock_wrlock(&lock);
        pos.x = i;
        pos.y = i;
        pthread_rwlock_unlock(&lock);
    }
    return 0;
}

static void *viewer(void *arg) {
    (void)arg;
    int x = pos.x;          /* forgot the read lock */
    int y = pos.y;
    assert(x == y);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, mover, 0);
    pthread_create(&b, 0, viewer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
