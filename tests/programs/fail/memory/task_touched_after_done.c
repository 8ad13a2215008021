// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=34
// A worker takes tasks off a locked list, counts each one done, and then
// touches the task once more. main waits until the count says every task
// is done and frees all of them in a loop: the worker can still be at its
// last touch of the task it counted last.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
    int id;
    int result;
    struct task *next;
};

static struct task *queue;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static int done_count;

static void *worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&qlock);
        struct task *t = queue;
        if (t) queue = t->next;
        pthread_mutex_unlock(&qlock);
        if (!t) break;
        t->result = t->id * 2;
        pthread_mutex_lock(&qlock);
        done_count++;
        pthread_mutex_unlock(&qlock);
        t->result += 1;             /* still using the task after reporting it done */
    }
    return 0;
}

int main(void) {
    struct task *all[3];
    for (int i = 0; i < 3; i++) {
        all[i] = malloc(sizeof *all[i]);
        all[i]->id = i;
        all[i]->next = queue;
        queue = all[i];
    }
    pthread_t w;
    pthread_create(&w, 0, worker, 0);
    for (;;) {                          /* wait until every task is reported done */
        pthread_mutex_lock(&qlock);
        int d = done_count;
        pthread_mutex_unlock(&qlock);
        if (d == 3) break;
    }
    for (int i = 0; i < 3; i++) free(all[i]);   /* bug: the worker may still touch the last one */
    pthread_join(w, 0);
    printf("ok\n");
    return 0;
}
