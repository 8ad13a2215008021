// causa: expect=bug:assertion-violation
// causa: check=bug
// A library keeps the last error in one global for every thread: each
// call sets it and the caller reads it back, but another thread's call can
// set it in between.
#include <pthread.h>
#include <assert.h>
static int last_error;
static int do_open(int fail) { last_error = fail ? 2 : 0; return fail ? -1 : 3; }
static void *opener(void *arg) {
    int fail = (int)(long)arg;
    int fd = do_open(fail);
    if (fd < 0) assert(last_error == 2);
    else assert(last_error == 0);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, opener, (void *)1L);
    pthread_create(&b, 0, opener, (void *)0L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
