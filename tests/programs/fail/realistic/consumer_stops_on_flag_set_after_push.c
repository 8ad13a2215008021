// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=58
// A consumer takes items from a queue under its lock until it finds the
// queue empty and the producer's `produced_done` flag set; the producer
// sets the flag without the lock after its last push. Between the
// consumer's empty look at the queue and its test of the flag, the
// producer pushes the rest and sets the flag: the consumer stops with
// items left. No order of the failing run's paths avoids it (the consumer
// found the queue empty twice); the explanation flips the flag's test and
// says that the queue and the flag were read at different times.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct item { int value; struct item *next; };
static struct item *queue;
static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
static int produced_done;

static void *producer(void *a) {
    (void)a;
    for (int i = 1; i <= 3; i++) {
        struct item *it = malloc(sizeof *it);
        it->value = i * 10;
        pthread_mutex_lock(&qm);
        it->next = queue;
        queue = it;
        pthread_mutex_unlock(&qm);
    }
    produced_done = 1;   /* BUG: set without the lock, and the consumer trusts it */
    return 0;
}

static void *consumer(void *a) {
    (void)a;
    int total = 0;
    for (;;) {
        pthread_mutex_lock(&qm);
        struct item *it = queue;
        if (it) queue = it->next;
        pthread_mutex_unlock(&qm);
        if (it) { total += it->value; free(it); continue; }
        if (produced_done) break;
    }
    int *r = malloc(sizeof *r);
    *r = total;
    return r;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    void *res;
    pthread_join(p, 0);
    pthread_join(c, &res);
    assert(*(int *)res == 60);
    free(res);
    return 0;
}
