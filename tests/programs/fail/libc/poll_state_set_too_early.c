// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=26
// The fault the polled state hides: the worker sets the state to "done"
// before it publishes its result, so main can leave its strcmp poll and read
// the result too early.
#include <assert.h>
#include <pthread.h>
#include <string.h>

char state[16] = "starting";
int result;

void *worker(void *arg) {
    (void)arg;
    strcpy(state, "done");
    result = 42;
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
