// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=14
// start_worker() passes the address of its local `id` to the new thread and
// returns without waiting. If the worker reads the argument after
// start_worker() has returned, it accesses a dead stack frame.

#include <pthread.h>
#include <stdio.h>

int seen = -1;

void *worker(void *arg) {
    int id = *(int *)arg;
    seen = id;
    return NULL;
}

static pthread_t start_worker(int n) {
    pthread_t t;
    int id = n;
    pthread_create(&t, NULL, worker, &id);
    return t;
}

int main(void) {
    pthread_t t = start_worker(3);
    pthread_join(t, NULL);
    printf("seen=%d\n", seen);
    return 0;
}
