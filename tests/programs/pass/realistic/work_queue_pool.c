// causa: expect=no-bug
// causa: check=verified
// causa: check-cflags=-DNJOBS=2 -DNWORKERS=2
// causa: stdout=processed 8 jobs, sum 88
// A small thread pool: main pushes malloc'ed jobs onto a linked-list queue
// guarded by a mutex; three workers pop jobs, waiting on a condition variable
// while the queue is empty. After the last job main sets a shutdown flag and
// broadcasts; workers drain the queue before leaving. Every job is processed
// exactly once, so the totals are fixed.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NWORKERS
#define NWORKERS 3
#endif
#ifndef NJOBS
#define NJOBS 8
#endif

struct job {
    int id;
    int value;
    struct job *next;
};

struct queue {
    struct job *head;
    struct job *tail;
    int shutdown;
    pthread_mutex_t lock;
    pthread_cond_t nonempty;
};

static struct queue q = {
    NULL, NULL, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
};

static int done_count = 0;
static long done_sum = 0;
static int seen[NJOBS];
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

static void queue_push(struct queue *qu, int id, int value) {
    struct job *j = malloc(sizeof *j);
    assert(j != NULL);
    j->id = id;
    j->value = value;
    j->next = NULL;
    pthread_mutex_lock(&qu->lock);
    if (qu->tail)
        qu->tail->next = j;
    else
        qu->head = j;
    qu->tail = j;
    pthread_cond_signal(&qu->nonempty);
    pthread_mutex_unlock(&qu->lock);
}

/* Returns NULL once the queue is shut down and empty. */
static struct job *queue_pop(struct queue *qu) {
    pthread_mutex_lock(&qu->lock);
    while (qu->head == NULL && !qu->shutdown)
        pthread_cond_wait(&qu->nonempty, &qu->lock);
    struct job *j = qu->head;
    if (j) {
        qu->head = j->next;
        if (qu->head == NULL)
            qu->tail = NULL;
    }
    pthread_mutex_unlock(&qu->lock);
    return j;
}

static void queue_shutdown(struct queue *qu) {
    pthread_mutex_lock(&qu->lock);
    qu->shutdown = 1;
    pthread_cond_broadcast(&qu->nonempty);
    pthread_mutex_unlock(&qu->lock);
}

static void *worker(void *arg) {
    int *mine = arg;
    struct job *j;
    while ((j = queue_pop(&q)) != NULL) {
        int result = j->value * 2;
        pthread_mutex_lock(&stats_lock);
        assert(seen[j->id] == 0);
        seen[j->id] = 1;
        done_count++;
        done_sum += result;
        pthread_mutex_unlock(&stats_lock);
        (*mine)++;
        free(j);
    }
    return NULL;
}

int main(void) {
    pthread_t tids[NWORKERS];
    int per_worker[NWORKERS] = {0};
    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&tids[i], NULL, worker, &per_worker[i]);

    int expected = 0;
    for (int i = 0; i < NJOBS; i++) {
        int v = (i % 2) ? i * 2 : i; /* 0,2,2,6,4,10,6,14: sum 44 */
        expected += 2 * v;
        queue_push(&q, i, v);
    }
    queue_shutdown(&q);

    int total = 0;
    for (int i = 0; i < NWORKERS; i++) {
        pthread_join(tids[i], NULL);
        total += per_worker[i];
    }
    assert(total == NJOBS);
    assert(done_count == NJOBS);
    assert(done_sum == expected);
    for (int i = 0; i < NJOBS; i++)
        assert(seen[i] == 1);
    assert(q.head == NULL && q.tail == NULL);
    printf("processed %d jobs, sum %ld\n", done_count, done_sum);
    return 0;
}
