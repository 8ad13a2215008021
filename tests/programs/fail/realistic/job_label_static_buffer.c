// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=25
// A helper formats a job's label into a static buffer and returns it, as
// many C helpers do; two workers call it and check the label they got.
// The buffer is one for every caller: the second call overwrites it
// before the first caller has compared it. The fix is a buffer per
// caller, not a lock.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const char *job_label(int id) {
    static char buf[16];
    snprintf(buf, sizeof buf, "job-%d", id);
    return buf;
}

static void *worker(void *arg) {
    int id = *(int *)arg;
    char expect[16];
    snprintf(expect, sizeof expect, "job-%d", id);
    assert(strcmp(job_label(id), expect) == 0);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int x = 1, y = 2;
    pthread_create(&a, 0, worker, &x);
    pthread_create(&b, 0, worker, &y);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
