// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=39
// Two workers each parse a comma-separated list of amounts with strtok_r
// (in a buffer of their own) and add every amount to a shared total with a
// read and a separate write: an addition can be lost.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

static int total;

struct job {
    const char *amounts;
};

static void *worker(void *arg) {
    const struct job *job = arg;
    char line[32];
    char *save = NULL;
    strncpy(line, job->amounts, sizeof line - 1);
    line[sizeof line - 1] = '\0';
    for (char *field = strtok_r(line, ", ", &save); field != NULL; field = strtok_r(NULL, ", ", &save)) {
        int seen = total;
        total = seen + atoi(field);
    }
    return NULL;
}

int main(void) {
    static const struct job jobs[2] = {{"3, 4,5"}, {"10,20"}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, (void *)&jobs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    // 3 + 4 + 5 + 10 + 20
    assert(total == 42);
    return 0;
}
