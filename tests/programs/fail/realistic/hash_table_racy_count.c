// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=123
// The per-bucket-locked hash table of pass/realistic/hash_table_bucket_locks.c,
// but the table size is one global `count` bumped with `count++` after the
// bucket lock is released. Two inserters can read the same old value and one
// increment is lost, so main's final size check fails.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 4
#define NTHREADS 3

struct entry {
    char *key;
    int count;
    struct entry *next;
};

struct bucket {
    pthread_mutex_t lock;
    struct entry *head;
    int size;
};

static struct bucket table[NBUCKETS];
static int count = 0; /* BUG: shared by all buckets, never locked */

static unsigned hash(const char *s) {
    unsigned h = 5381;
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++)
        h = h * 33u + (unsigned char)s[i];
    return h % NBUCKETS;
}

static void table_init(void) {
    for (int i = 0; i < NBUCKETS; i++) {
        pthread_mutex_init(&table[i].lock, NULL);
        table[i].head = NULL;
        table[i].size = 0;
    }
}

/* Inserts key or bumps its count; returns 1 when the key was new. */
static int table_insert(const char *key) {
    struct bucket *b = &table[hash(key)];
    pthread_mutex_lock(&b->lock);
    for (struct entry *e = b->head; e; e = e->next) {
        if (strcmp(e->key, key) == 0) {
            e->count++;
            pthread_mutex_unlock(&b->lock);
            return 0;
        }
    }
    struct entry *e = malloc(sizeof *e);
    assert(e != NULL);
    e->key = strdup(key);
    e->count = 1;
    e->next = b->head;
    b->head = e;
    b->size++;
    pthread_mutex_unlock(&b->lock);
    count++;
    return 1;
}

static int table_lookup(const char *key) {
    struct bucket *b = &table[hash(key)];
    int found = 0;
    pthread_mutex_lock(&b->lock);
    for (struct entry *e = b->head; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            found = e->count;
    pthread_mutex_unlock(&b->lock);
    return found;
}

static int table_size(void) {
    int n = 0;
    for (int i = 0; i < NBUCKETS; i++) {
        pthread_mutex_lock(&table[i].lock);
        n += table[i].size;
        pthread_mutex_unlock(&table[i].lock);
    }
    return n;
}

static const char *keys[NTHREADS][3] = {
    {"apple", "banana", "shared"},
    {"cherry", "damson", "shared"},
    {"elder", "fig", "shared"},
};
static const char *extra[] = {"grape", "honeydew"};

static void *inserter(void *arg) {
    int id = (int)(long)arg;
    int fresh = 0;
    for (int i = 0; i < 3; i++)
        fresh += table_insert(keys[id][i]);
    if (id < 2)
        fresh += table_insert(extra[id]);
    return (void *)(long)fresh;
}

int main(void) {
    pthread_t t[NTHREADS];
    table_init();
    for (long i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, inserter, (void *)i);
    long fresh_total = 0;
    for (int i = 0; i < NTHREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        fresh_total += (long)r;
    }
    int size = table_size();
    assert(size == 9);
    assert(count == size);
    assert(fresh_total == size);
    assert(table_lookup("shared") == 3);
    size_t total_len = 0;
    for (int i = 0; i < NTHREADS; i++)
        for (int k = 0; k < 2; k++) {
            assert(table_lookup(keys[i][k]) == 1);
            total_len += strlen(keys[i][k]);
        }
    assert(table_lookup("grape") == 1 && table_lookup("honeydew") == 1);
    assert(table_lookup("kiwi") == 0);
    total_len += strlen("shared") + strlen("grape") + strlen("honeydew");
    printf("count %d, size %d, lookups ok, total key length %zu\n", count, size, total_len);
    for (int i = 0; i < NBUCKETS; i++) {
        struct entry *e = table[i].head;
        while (e) {
            struct entry *next = e->next;
            free(e->key);
            free(e);
            e = next;
        }
        pthread_mutex_destroy(&table[i].lock);
    }
    return 0;
}
