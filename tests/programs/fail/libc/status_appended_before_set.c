// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=27
// main builds a status line in its own buffer with strcat of the shared
// state word, which a worker sets with strcpy. Nothing orders the two:
// main can append the state before the worker set it, and the line reads
// "state: " alone.

#include <assert.h>
#include <pthread.h>
#include <string.h>

static char state[16];

static void *worker(void *arg) {
    (void)arg;
    strcpy(state, "ready");
    return 0;
}

int main(void) {
    pthread_t w;
    pthread_create(&w, 0, worker, 0);
    char line[32] = "state: ";
    strcat(line, state); /* bug: the worker may not have set it yet */
    pthread_join(w, 0);
    assert(strcmp(line, "state: ready") == 0);
    return 0;
}
