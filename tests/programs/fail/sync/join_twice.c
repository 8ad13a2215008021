// causa: expect=bug:invalid-pthread-use
// causa: check=bug
// causa: at-line=21
// causa: message=joined twice
// The worker is joined once by a helper that collects results and again
// by main at the end: a thread can be joined only once.
#include <pthread.h>

static pthread_t worker;
static int result;

static void *work(void *arg) {
    (void)arg;
    result = 42;
    return 0;
}

static void finish(void) {
    pthread_join(worker, 0);
    if (result == 42)
        pthread_join(worker, 0);
}

int main(void) {
    pthread_create(&worker, 0, work, 0);
    finish();
    return 0;
}
