// A pool of CONNS connections that CLIENTS clients take and give back
// ROUNDS times each, the slots under a mutex but the count of connections
// handed out (`active`) updated outside it: a lost update main's final
// check catches. Written as a new user would, with a bug MCR is slow on:
// its first trace has 412 events, and `causa check` was still in that
// trace's 26 solver queries after 430 s; a uniform random schedule shows
// the lost update at once. Since the sixty-eighth session the first trace
// of 300 events or more gets a batch of random probes before its queries
// (crates/causa-explore/src/probe.rs; docs/performance.md).
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define CONNS 4
#define CLIENTS 3
#ifndef ROUNDS
#define ROUNDS 12
#endif

int in_use[CONNS];
int active;               /* connections handed out right now */
pthread_mutex_t pool = PTHREAD_MUTEX_INITIALIZER;

int acquire(void) {
    int c = -1;
    pthread_mutex_lock(&pool);
    for (int i = 0; i < CONNS; i++)
        if (!in_use[i]) { in_use[i] = 1; c = i; break; }
    pthread_mutex_unlock(&pool);
    if (c >= 0)
        active++;         /* counted outside the lock */
    return c;
}

void release(int c) {
    pthread_mutex_lock(&pool);
    in_use[c] = 0;
    pthread_mutex_unlock(&pool);
    active--;
}

void *client(void *arg) {
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        int c = acquire();
        if (c >= 0)
            release(c);
    }
    return NULL;
}

int main(void) {
    pthread_t t[CLIENTS];
    for (int i = 0; i < CLIENTS; i++)
        pthread_create(&t[i], NULL, client, NULL);
    for (int i = 0; i < CLIENTS; i++)
        pthread_join(t[i], NULL);
    printf("active at the end: %d\n", active);
    assert(active == 0);
    return 0;
}
