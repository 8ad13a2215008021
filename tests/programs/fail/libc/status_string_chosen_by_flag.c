// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// A reporter copies one of two constant strings, chosen by a flag another
// thread sets, into a shared status line (`strcpy(status, ready ? "ready" :
// "waiting")`); main checks that the status says ready, and that the byte
// after "ready" is still the line's padding. When the reporter runs first
// it copies "waiting", and both checks fail. (Explaining it said "the
// constraints are unsatisfiable": the flag was pinned to the 1 written
// over its start, which the run did not read; and such a copy into shared
// memory was unsupported.)
#include <assert.h>
#include <pthread.h>
#include <string.h>

int ready;
char status[16] = "---------------";

void *setter(void *arg) {
    (void)arg;
    ready = 1;
    return 0;
}

void *reporter(void *arg) {
    (void)arg;
    strcpy(status, ready ? "ready" : "waiting");
    return 0;
}

int main(void) {
    pthread_t s, r;
    pthread_create(&s, 0, setter, 0);
    pthread_create(&r, 0, reporter, 0);
    pthread_join(s, 0);
    pthread_join(r, 0);
    assert(status[0] == 'r' && status[6] == '-');
    return 0;
}
