// causa: expect=no-bug
// causa: check=verified
// causa: stdout=destructor calls 4, exit value 7
// A key's destructor sets the value again each time it runs: as in glibc,
// a thread's destructors run at its end (here after pthread_exit) while
// values remain, 4 rounds at most (PTHREAD_DESTRUCTOR_ITERATIONS), and
// the thread's exit value is the one pthread_exit was given.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

static pthread_key_t key;
static int calls;
static int token;

static void again(void *p) {
    calls++;
    pthread_setspecific(key, p);
}

static void *worker(void *arg) {
    pthread_setspecific(key, arg);
    pthread_exit((void *)(intptr_t)7);
}

int main(void) {
    pthread_key_create(&key, again);
    pthread_t t;
    void *ret;
    pthread_create(&t, 0, worker, &token);
    pthread_join(t, &ret);
    printf("destructor calls %d, exit value %d\n", calls, (int)(intptr_t)ret);
    return 0;
}
