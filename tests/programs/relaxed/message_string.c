// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=bug:assertion-violation
// A status word written a character at a time, then announced by a flag;
// the reader compares it with strcmp. Under PSO the last character's store
// may not be visible yet when the flag is, and strcmp sees "o" not "ok".

#include <assert.h>
#include <pthread.h>
#include <string.h>

char status[4];
int announced;

void *setter(void *arg) {
    (void)arg;
    status[0] = 'o';
    status[1] = 'k';
    announced = 1;
    return 0;
}

void *watcher(void *arg) {
    (void)arg;
    if (announced)
        assert(strcmp(status, "ok") == 0);
    return 0;
}

int main(void) {
    pthread_t s, w;
    pthread_create(&s, 0, setter, 0);
    pthread_create(&w, 0, watcher, 0);
    pthread_join(s, 0);
    pthread_join(w, 0);
    return 0;
}
