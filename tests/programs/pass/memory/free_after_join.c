// causa: expect=no-bug
// causa: check=verified
// The fixed version of the use-after-free job: each worker owns its heap job
// while it runs, and main frees the jobs only after joining the workers, so
// no access can touch freed memory.

#include <assert.h>
#include <pthread.h>
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
    pthread_t t[2];
    struct job *jobs[2];
    for (int i = 0; i < 2; i++) {
        jobs[i] = malloc(sizeof *jobs[i]);
        assert(jobs[i] != NULL);
        jobs[i]->id = 20 + i;
        jobs[i]->result = 0;
        pthread_create(&t[i], NULL, worker, jobs[i]);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(jobs[0]->result == 40 && jobs[1]->result == 42);
    free(jobs[0]);
    free(jobs[1]);
    return 0;
}
