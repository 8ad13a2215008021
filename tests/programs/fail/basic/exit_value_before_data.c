// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=30
// A consumer ends with pthread_exit, passing back the data when the
// producer says it is ready, or -1 when it is not yet. main sets the ready
// flag before it stores the data, so the consumer can pass back the data's
// old value.
#include <pthread.h>
#include <assert.h>
#include <stdint.h>

static int ready;
static int data;

static void *consumer(void *arg) {
    (void)arg;
    if (!ready)
        pthread_exit((void *)-1);
    pthread_exit((void *)(intptr_t)data);
}

int main(void) {
    pthread_t c;
    void *got;
    pthread_create(&c, NULL, consumer, NULL);
    ready = 1; /* bug: before the data it announces */
    data = 42;
    pthread_join(c, &got);
    intptr_t value = (intptr_t)got;
    assert(value == -1 || value == 42);
    return 0;
}
