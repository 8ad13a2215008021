// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=39
// Two threads each release the last used slot of a table: each reads
// the index under the lock, clears the 32-byte slot with memset outside
// it, and stores the index below under the lock again. Both can read the
// same index: one slot is cleared twice and the other stays in use.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct slot {
    int used;
    int owner;
    char name[24];
};

static struct slot table[4] = {{1, 7, "seven"}, {1, 8, "eight"}};
static int last = 1;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *release_last(void *arg) {
    pthread_mutex_lock(&m);
    int i = last;
    pthread_mutex_unlock(&m);
    memset(&table[i], 0, sizeof table[i]);
    pthread_mutex_lock(&m);
    last = i - 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, release_last, 0);
    pthread_create(&b, 0, release_last, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(table[0].used == 0 && table[1].used == 0);
    return 0;
}
