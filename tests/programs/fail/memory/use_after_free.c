// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=18
// main hands a heap-allocated job to a worker and frees it before joining.
// When the free happens first, the worker reads freed memory.

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
    int id;
    int result;
};

void *worker(void *arg) {
    struct job *job = arg;
    job->result = job->id * 2;
    return NULL;
}

int main(void) {
    pthread_t t;
    struct job *job = malloc(sizeof *job);
    if (job == NULL)
        return 1;
    job->id = 21;
    job->result = 0;
    pthread_create(&t, NULL, worker, job);
    free(job);
    pthread_join(t, NULL);
    puts("done");
    return 0;
}
