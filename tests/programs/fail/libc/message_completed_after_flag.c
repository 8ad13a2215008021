// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A producer writes a reply in two steps, the status digit and then the
// rest of the code, but raises the `ready` flag after the first step. The
// consumer spins on the flag and parses the reply with atoi: it can parse
// "4" instead of "42". The explanation needs the producer taken past the
// failing run (its strcat): the strcat's event in the replayed alternate
// starts where it appends, not at the buffer, and is still paired with
// the model's (before, the alternate showed no difference at all).
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

static char reply[16];
static volatile int ready;

static void *producer(void *arg) {
    (void)arg;
    strcpy(reply, "4");
    ready = 1; /* bug: raised before the reply is complete */
    strcat(reply, "2");
    return NULL;
}

static void *consumer(void *arg) {
    (void)arg;
    while (!ready) {
    }
    int code = atoi(reply);
    assert(code == 42);
    return NULL;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    return 0;
}
