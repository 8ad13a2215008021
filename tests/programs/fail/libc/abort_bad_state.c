// causa: expect=bug:abort
// causa: check=bug
// causa: at-line=31
// A small state machine: `finish` must only run after `start` moved the
// connection to RUNNING. Nothing enforces that order, so `finish` can see
// IDLE and abort().

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum state { IDLE, RUNNING, DONE };

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
enum state conn_state = IDLE;

void *start(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (conn_state == IDLE)
        conn_state = RUNNING;
    pthread_mutex_unlock(&m);
    return NULL;
}

void *finish(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (conn_state != RUNNING) {
        fprintf(stderr, "finish: bad state %d\n", (int)conn_state);
        abort();
    }
    conn_state = DONE;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, start, NULL);
    pthread_create(&b, NULL, finish, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("state=%d\n", (int)conn_state);
    return 0;
}
