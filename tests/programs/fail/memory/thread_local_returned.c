// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=19
// The worker formats its name into a thread-local buffer and returns the
// buffer's address; main prints it after the join, when the worker and its
// thread-local variables have ended. Every schedule fails.

#include <pthread.h>
#include <stdio.h>

static __thread char name[16];

static void *worker(void *arg) {
    snprintf(name, sizeof name, "worker-%d", (int)(long)arg);
    return name; /* bug: the caller gets this thread's own storage */
}

static void report(void *r) {
    printf("%s\n", (char *)r);
}

int main(void) {
    pthread_t t;
    void *r;
    pthread_create(&t, 0, worker, (void *)7L);
    pthread_join(t, &r);
    report(r);
    return 0;
}
