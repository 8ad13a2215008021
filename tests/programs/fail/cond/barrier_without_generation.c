// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=21
#include <pthread.h>
#include <assert.h>

/* A reusable barrier without a generation number: a fast thread that
   leaves and re-enters can see `count` reset and wait in the wrong round. */
struct barrier { pthread_mutex_t m; pthread_cond_t c; int count, n; };
static struct barrier bar = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 2 };
static int phase_done[2];

static void wait_barrier(struct barrier *b) {
    pthread_mutex_lock(&b->m);
    b->count++;
    if (b->count == b->n) {
        b->count = 0;
        pthread_cond_broadcast(&b->c);
    } else {
        while (b->count != 0)      /* bug: a new round's arrival makes count nonzero again */
            pthread_cond_wait(&b->c, &b->m);
    }
    pthread_mutex_unlock(&b->m);
}

static void *worker(void *arg) {
    int id = *(int *)arg;
    for (int round = 0; round < 2; round++) {
        phase_done[id] = round + 1;
        wait_barrier(&bar);
        assert(phase_done[1 - id] >= round + 1);
    }
    return 0;
}

int main(void) {
    pthread_t t[2];
    int ids[2] = {0, 1};
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, &ids[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    return 0;
}
