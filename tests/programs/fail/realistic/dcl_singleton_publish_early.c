// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=54
// Lazy singleton with double-checked locking. The fast path reads `instance`
// without the lock; the slow path takes the lock, re-checks and creates the
// object. The bug: the creator stores the pointer into `instance` before it
// fills in the fields, so a second thread can take the fast path between the
// publication and the initialisation and read `magic` while it is still 0.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC 0xC0FFEE
#define NREADERS 3

struct config {
    int magic;
    int version;
    char name[16];
    int limits[4];
};

static struct config *instance = NULL;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int creations = 0;

static struct config *get_config(void) {
    struct config *c = instance; /* fast path: no lock */
    if (c == NULL) {
        pthread_mutex_lock(&init_lock);
        c = instance;
        if (c == NULL) {
            c = calloc(1, sizeof *c);
            assert(c != NULL);
            instance = c; /* BUG: published before it is initialised */
            creations++;
            strcpy(c->name, "default");
            for (int i = 0; i < 4; i++)
                c->limits[i] = (i + 1) * 10;
            c->version = 3;
            c->magic = MAGIC;
        }
        pthread_mutex_unlock(&init_lock);
    }
    return c;
}

static void *reader(void *arg) {
    int id = (int)(long)arg;
    struct config *c = get_config();
    assert(c->magic == MAGIC);
    int sum = 0;
    for (int i = 0; i < 4; i++)
        sum += c->limits[i];
    assert(sum == 100);
    assert(c->version == 3);
    return (void *)(long)(sum + id);
}

int main(void) {
    pthread_t t[NREADERS];
    for (long i = 0; i < NREADERS; i++)
        pthread_create(&t[i], NULL, reader, (void *)i);
    long total = 0;
    for (int i = 0; i < NREADERS; i++) {
        void *r;
        pthread_join(t[i], &r);
        total += (long)r;
    }
    assert(creations == 1);
    assert(strcmp(instance->name, "default") == 0);
    printf("config %s v%d, total %ld\n", instance->name, instance->version, total);
    free(instance);
    return 0;
}
