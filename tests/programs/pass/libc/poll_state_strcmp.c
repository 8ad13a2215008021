// causa: expect=no-bug
// causa: check=verified
// main polls a shared state string with strcmp until the worker has
// published its result and then set the state to "done". Each strcmp is
// one read of the string; a poll that reads the same bytes again with
// nothing changed is a busy wait, parked until the worker writes (without
// that, every execution ran to --max-steps and check said unknown).
#include <assert.h>
#include <pthread.h>
#include <string.h>

char state[16] = "starting";
int result;

void *worker(void *arg) {
    (void)arg;
    result = 42;
    strcpy(state, "done");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (strcmp(state, "done") != 0) {
    }
    assert(result == 42);
    pthread_join(t, 0);
    return 0;
}
