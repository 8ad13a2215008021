// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// Two workers count their steps in a shared counter with a read and a
// separate write, logging each step to a file between the two: an update
// can be lost. (The log file is kept in memory: causa never writes to disk.)
#include <pthread.h>
#include <stdio.h>
#include <assert.h>

static int count;
static FILE *logf;

static void *worker(void *arg) {
    for (int i = 0; i < 2; i++) {
        int c = count;
        fprintf(logf, "worker %ld step %d\n", (long)arg, i);
        count = c + 1;
    }
    return NULL;
}

int main(void) {
    logf = fopen("/tmp/causa-log-file-lost-count.txt", "w");
    if (!logf) return 1;
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)1);
    pthread_create(&b, NULL, worker, (void *)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    fclose(logf);
    assert(count == 4);
    return 0;
}
