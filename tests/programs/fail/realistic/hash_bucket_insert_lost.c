// causa: expect=bug:assertion-violation
// causa: check=bug
// A chained hash table without a lock: each insert links its entry to the
// bucket's head and then makes it the head. Two inserts into one bucket
// that interleave lose an entry, and main, counting the entries after the
// joins, finds 3 instead of 4. On the failing run's paths (main's walk
// stops after 3) every order fails, so the alternate also walks one entry
// further; the summary tells the insert's lines to make atomic first, and
// the walk's branch after.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#define BUCKETS 4
struct entry { int key; struct entry *next; };
static struct entry *table[BUCKETS];

static void insert(int key) {
    struct entry *e = malloc(sizeof *e);
    e->key = key;
    e->next = table[key % BUCKETS];   /* read the bucket's head ... */
    table[key % BUCKETS] = e;         /* ... and replace it: not atomic */
}

static void *adder(void *arg) {
    int base = (int)(long)arg;
    insert(base);
    insert(base + BUCKETS);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void *)1);
    pthread_create(&b, NULL, adder, (void *)5);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    int n = 0;
    for (int i = 0; i < BUCKETS; i++)
        for (struct entry *e = table[i]; e; e = e->next)
            n++;
    assert(n == 4);
    return 0;
}
