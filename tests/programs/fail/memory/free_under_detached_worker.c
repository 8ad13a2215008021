// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=20
// main hands a buffer to a detached worker that fills it in, then frees
// the buffer and returns without waiting: when the worker's write comes
// after the free, it writes to freed memory. The first execution of
// `causa check` runs main to its end before the worker starts; the check
// must run the worker before main's end to see its write at all.

#include <pthread.h>
#include <stdlib.h>

struct job {
    int id;
    int result;
};

void *fill(void *arg) {
    struct job *j = arg;
    j->result = j->id * 2;
    return 0;
}

int main(void) {
    struct job *j = malloc(sizeof *j);
    if (!j)
        return 1;
    j->id = 21;
    pthread_t t;
    pthread_create(&t, 0, fill, j);
    pthread_detach(t);
    free(j);
    return 0;
}
