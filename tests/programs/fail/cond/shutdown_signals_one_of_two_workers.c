// causa: expect=bug:deadlock
// causa: check=bug
// causa: flags=--strategy pct --depth 3
// A thread pool's shutdown: main sets `shutting_down` and signals the
// condition variable once, but both workers may be waiting on it. The
// signal wakes one of them, which sees the flag and leaves; the other
// waits forever although the change it waits for stands. (The flag is
// also set without the lock, so a worker between its check and its wait
// can miss it.) `pthread_cond_broadcast`, under the lock, avoids both.

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
    int n;
    struct task *next;
};

struct task *queue;
int shutting_down;
pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t qc = PTHREAD_COND_INITIALIZER;
long done;

void *worker(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&qm);
        while (!queue && !shutting_down)
            pthread_cond_wait(&qc, &qm);
        struct task *t = queue;
        if (t)
            queue = t->next;
        pthread_mutex_unlock(&qm);
        if (!t)
            return NULL;
        done += t->n;
        free(t);
    }
}

void submit(int n) {
    struct task *t = malloc(sizeof *t);
    t->n = n;
    pthread_mutex_lock(&qm);
    t->next = queue;
    queue = t;
    pthread_cond_signal(&qc);
    pthread_mutex_unlock(&qm);
}

int main(void) {
    pthread_t w[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&w[i], NULL, worker, NULL);
    for (int i = 1; i <= 3; i++)
        submit(i);
    shutting_down = 1; /* bug: a signal for one, and no lock */
    pthread_cond_signal(&qc);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], NULL);
    printf("done %ld\n", done);
    return 0;
}
