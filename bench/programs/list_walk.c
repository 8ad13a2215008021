// A lost update after a list built under a lock and walked at the end:
// THREADS workers each push PUSHES nodes onto a shared list under its
// mutex, then add PUSHES to a shared count without it. main walks the list
// (every `n->next` read through a pointer read from shared memory: a
// symbolic address whose candidates are every node) and checks the count.
// Used by bench/explain.sh: the explanation's cost grows steeply with the
// nodes (docs/performance.md).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#ifndef PUSHES
#define PUSHES 10
#endif
#define THREADS 3

struct node {
    int owner;
    struct node *next;
};

struct node *head;
int pushed;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    int id = *(int *)arg;
    for (int i = 0; i < PUSHES; i++) {
        struct node *n = malloc(sizeof *n);
        n->owner = id;
        pthread_mutex_lock(&m);
        n->next = head;
        head = n;
        pthread_mutex_unlock(&m);
    }
    int p = pushed; /* BUG: not under the lock */
    pushed = p + PUSHES;
    return 0;
}

int main(void) {
    pthread_t th[THREADS];
    int ids[THREADS];
    for (int t = 0; t < THREADS; t++) {
        ids[t] = t;
        pthread_create(&th[t], 0, worker, &ids[t]);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], 0);
    int count = 0;
    for (struct node *n = head; n; n = n->next)
        count++;
    assert(count == pushed);
    return 0;
}
