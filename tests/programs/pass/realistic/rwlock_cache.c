// causa: expect=no-bug
// causa: check=verified
// causa: stdout=reader 0: 6 hits, 0 misses, last version 2
// causa: stdout=reader 1: 6 hits, 0 misses, last version 2
// causa: stdout=writer: 2 updates
// causa: stdout=cache v2: [0]=10 [1]=11 [2]=12 [3]=13 [4]=14 [5]=15
// causa: stdout=total 75, avg 12.50
// A small key/value cache kept as a struct of arrays (keys, values, valid
// bits, a version). Two readers look keys up under the read lock; one writer
// refreshes all values under the write lock, bumping the version. Readers
// check that every entry they see is consistent with the version they read
// in the same critical section (values are key + 5 * version). main prints
// each thread's statistics after joining it, so the output is fixed.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define SLOTS 6
#define LOOKUPS 6
#define UPDATES 2

struct cache {
    pthread_rwlock_t lock;
    int keys[SLOTS];
    int values[SLOTS];
    unsigned char valid[SLOTS];
    int version;
};

struct reader_stats {
    int id;
    int hits;
    int misses;
    int last_version;
};

static struct cache cache;

static void cache_fill(struct cache *c, int version) {
    for (int i = 0; i < SLOTS; i++) {
        c->keys[i] = i;
        c->values[i] = i + 5 * version;
        c->valid[i] = 1;
    }
    c->version = version;
}

/* Returns 1 and the value when the key is cached. */
static int cache_get(struct cache *c, int key, int *value, int *version) {
    int found = 0;
    pthread_rwlock_rdlock(&c->lock);
    for (int i = 0; i < SLOTS; i++) {
        if (c->valid[i] && c->keys[i] == key) {
            *value = c->values[i];
            *version = c->version;
            assert(*value == key + 5 * *version);
            found = 1;
            break;
        }
    }
    pthread_rwlock_unlock(&c->lock);
    return found;
}

static void *reader(void *arg) {
    struct reader_stats *st = arg;
    for (int i = 0; i < LOOKUPS; i++) {
        int key = (st->id + i) % SLOTS, value, version;
        if (cache_get(&cache, key, &value, &version)) {
            st->hits++;
            assert(version >= st->last_version); /* versions never go back */
            st->last_version = version;
        } else {
            st->misses++;
        }
    }
    return NULL;
}

static void *writer(void *arg) {
    int *updates = arg;
    for (int v = 1; v <= UPDATES; v++) {
        pthread_rwlock_wrlock(&cache.lock);
        for (int i = 0; i < SLOTS; i++)
            cache.valid[i] = 0;
        cache_fill(&cache, v);
        pthread_rwlock_unlock(&cache.lock);
        (*updates)++;
    }
    return NULL;
}

int main(void) {
    pthread_rwlock_init(&cache.lock, NULL);
    cache_fill(&cache, 0);

    struct reader_stats st[2] = {{0, 0, 0, 0}, {1, 0, 0, 0}};
    int updates = 0;
    pthread_t w, r[2];
    pthread_create(&w, NULL, writer, &updates);
    for (int i = 0; i < 2; i++)
        pthread_create(&r[i], NULL, reader, &st[i]);

    pthread_join(w, NULL);
    for (int i = 0; i < 2; i++) {
        pthread_join(r[i], NULL);
        assert(st[i].hits + st[i].misses == LOOKUPS);
        printf("reader %d: %d hits, %d misses, last version %d\n", st[i].id,
               st[i].hits, st[i].misses, st[i].last_version);
    }
    printf("writer: %d updates\n", updates);

    int total = 0;
    printf("cache v%d:", cache.version);
    for (int i = 0; i < SLOTS; i++) {
        printf(" [%d]=%d", cache.keys[i], cache.values[i]);
        total += cache.values[i];
    }
    printf("\n");
    printf("total %d, avg %.2f\n", total, (double)total / SLOTS);
    assert(total == 15 + SLOTS * 5 * UPDATES);
    pthread_rwlock_destroy(&cache.lock);
    return 0;
}
