// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=13
// main hands a worker a pointer to its local `config`, detaches it and
// calls pthread_exit: main's frames end there while the program goes on,
// so the worker reads a dead stack frame.
#include <pthread.h>
#include <stdio.h>

static int seen;

static void *worker(void *arg) {
    seen = *(int *)arg;
    printf("config %d\n", seen);
    return 0;
}

int main(void) {
    int config = 7;
    pthread_t t;
    pthread_create(&t, 0, worker, &config);
    pthread_detach(t);
    pthread_exit(0);
}
