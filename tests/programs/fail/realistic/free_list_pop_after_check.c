// causa: expect=bug:memory-error
// causa: check=bug
// A pool of buffers on a free list: `get` checks under the lock that the
// list is not empty, lets the lock go, and takes the head in a second
// critical section (check, then act). With two buffers and three users,
// two can see the list non-empty with one buffer left; the second pops
// from an empty list and dereferences null. Explaining it needs the
// values the head can hold, which come through the links (`free_list =
// b->next`): "targets unknown" until those were followed.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

/* A free list of buffers: get pops the head, put pushes it back. The
   pop checks the list is not empty under the lock, but takes the head
   after releasing it. */
struct buf { struct buf *next; int used; };
static struct buf bufs[2];
static struct buf *free_list;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static struct buf *get(void) {
    pthread_mutex_lock(&m);
    int empty = free_list == NULL;
    pthread_mutex_unlock(&m);
    if (empty)
        return NULL;
    pthread_mutex_lock(&m);
    struct buf *b = free_list;
    free_list = b->next;
    pthread_mutex_unlock(&m);
    return b;
}

static void *user(void *arg) {
    (void)arg;
    struct buf *b = get();
    if (b) {
        assert(!b->used);
        b->used = 1;
    }
    return 0;
}

int main(void) {
    bufs[0].next = &bufs[1];
    free_list = &bufs[0];
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, user, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
