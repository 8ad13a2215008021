// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=56
// Three acceptor threads each open four sessions: a session is linked at
// the head of a shared list under its lock, and the acceptor then adds
// the sessions it opened to a shared gauge without the lock. main walks
// the list after joining them (each step reads `s->next` through a
// pointer it read from shared memory: any of the twelve sessions) and
// checks the gauge against the sessions it counts: two acceptors'
// read-add-write of `open_sessions` interleave and one batch is lost.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

#define ACCEPTORS 3
#define PER_ACCEPTOR 4

struct session {
    int acceptor;
    int fd;
    struct session *next;
};

static struct session *sessions;
static int open_sessions;
static pthread_mutex_t sessions_lock = PTHREAD_MUTEX_INITIALIZER;

static void *acceptor(void *arg) {
    int id = *(int *)arg;
    for (int i = 0; i < PER_ACCEPTOR; i++) {
        struct session *s = malloc(sizeof *s);
        s->acceptor = id;
        s->fd = 100 * id + i;
        pthread_mutex_lock(&sessions_lock);
        s->next = sessions;
        sessions = s;
        pthread_mutex_unlock(&sessions_lock);
    }
    int n = open_sessions; /* BUG: the gauge is updated outside the lock */
    open_sessions = n + PER_ACCEPTOR;
    return 0;
}

int main(void) {
    pthread_t th[ACCEPTORS];
    int ids[ACCEPTORS];
    for (int t = 0; t < ACCEPTORS; t++) {
        ids[t] = t;
        pthread_create(&th[t], 0, acceptor, &ids[t]);
    }
    for (int t = 0; t < ACCEPTORS; t++)
        pthread_join(th[t], 0);
    int counted = 0;
    for (struct session *s = sessions; s; s = s->next)
        counted++;
    assert(counted == open_sessions);
    return 0;
}
