// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=47
// A table insert takes only the read lock: two inserters can both see
// slot 0 free and both fill it, and one key is lost. Every order of the
// failing run's paths loses it; the alternate takes another path (the
// second inserter sees slot 0 taken and uses slot 1).
#include <pthread.h>
#include <assert.h>
#include <string.h>

struct entry { int key; int val; int valid; };
static struct entry table[4];
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

static int lookup(int key) {
    pthread_rwlock_rdlock(&rw);
    int r = -1;
    for (int i = 0; i < 4; i++)
        if (table[i].valid && table[i].key == key) r = table[i].val;
    pthread_rwlock_unlock(&rw);
    return r;
}

static void insert(int key, int val) {
    pthread_rwlock_rdlock(&rw);          /* bug: should be wrlock */
    for (int i = 0; i < 4; i++) {
        if (!table[i].valid) {
            table[i].key = key;
            table[i].val = val;
            table[i].valid = 1;
            break;
        }
    }
    pthread_rwlock_unlock(&rw);
}

static void *w1(void *a) { (void)a; insert(1, 100); return 0; }
static void *w2(void *a) { (void)a; insert(2, 200); return 0; }

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, w1, 0);
    pthread_create(&b, 0, w2, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(lookup(1) == 100);
    assert(lookup(2) == 200);
    return 0;
}
