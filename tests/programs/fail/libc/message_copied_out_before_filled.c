// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=40
// A sender fills a shared message slot with memcpy under a lock; a flusher
// copies the slot out with memcpy and clears it, without the lock. When
// the copy runs before the sender's memcpy and the clear after it, the
// message is lost. Every byte the copy reads comes from the sender's one
// memcpy, so none of them can read another value alone: `check` said
// "verified" while it changed one copied byte at a time.
#include <assert.h>
#include <pthread.h>
#include <string.h>

static char slot[8];
static char flushed[8];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *sender(void *arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    memcpy(slot, "disk", 5);
    pthread_mutex_unlock(&lock);
    return 0;
}

static void *flusher(void *arg) {
    (void)arg;
    memcpy(flushed, slot, 5); /* bug: the slot is read without the lock */
    slot[0] = '\0';
    return 0;
}

int main(void) {
    pthread_t s, f;
    pthread_create(&s, 0, sender, 0);
    pthread_create(&f, 0, flusher, 0);
    pthread_join(s, 0);
    pthread_join(f, 0);
    /* the message was flushed, or it is still in the slot */
    assert(flushed[0] == 'd' || slot[0] == 'd');
    return 0;
}
