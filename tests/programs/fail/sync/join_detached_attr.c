// causa: expect=bug:invalid-pthread-use
// causa: check=bug
// causa: at-line=19
// causa: message=detached
// A thread created detached through its attributes cannot be joined (the
// join waits for its end, then fails).
#include <pthread.h>

static void *work(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t; pthread_create(&t, &attr, work, 0);
    pthread_join(t, 0);
    return 0;
}
