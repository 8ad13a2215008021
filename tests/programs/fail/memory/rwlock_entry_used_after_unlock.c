// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=36
// A configuration cache guarded by a reader-writer lock. Readers look up
// the current entry under the read lock but use it after releasing the
// lock; a reloader replaces (and frees) the entry under the write lock.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct config {
    int version;
    char name[16];
    int timeout;
};

static struct config *current;
static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;

static struct config *make(int version, int timeout) {
    struct config *c = malloc(sizeof *c);
    c->version = version;
    snprintf(c->name, sizeof c->name, "cfg-%d", version);
    c->timeout = timeout;
    return c;
}

static void *reader(void *arg) {
    long sum = 0;
    for (int i = 0; i < 2; i++) {
        pthread_rwlock_rdlock(&lock);
        struct config *c = current;
        pthread_rwlock_unlock(&lock);
        /* BUG: the entry is used after the lock is released */
        sum += c->timeout;
    }
    return (void *)sum;
}

static void *reloader(void *arg) {
    for (int v = 2; v <= 3; v++) {
        struct config *fresh = make(v, v * 10);
        pthread_rwlock_wrlock(&lock);
        struct config *old = current;
        current = fresh;
        pthread_rwlock_unlock(&lock);
        free(old);
    }
    return NULL;
}

int main(void) {
    current = make(1, 10);
    pthread_t r, w;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&w, NULL, reloader, NULL);
    pthread_join(r, NULL);
    pthread_join(w, NULL);
    printf("final %s\n", current->name);
    free(current);
    return 0;
}
