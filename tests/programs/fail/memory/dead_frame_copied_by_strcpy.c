// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=18
// start() hands a detached thread the address of its local `name` and
// returns; the thread copies it with strcpy into a static buffer after the
// frame died. The call touches two objects, the static destination and the
// dead source: the failure is the source's (the explanation's model once
// took the destination for it and found no schedule that fails).
#include <pthread.h>
#include <string.h>

char copy[16];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done;

void *saver(void *arg) {
    pthread_mutex_lock(&m);
    strcpy(copy, arg);
    done = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void start(void) {
    char name[16] = "session-7";
    pthread_t t;
    pthread_create(&t, 0, saver, name);
    pthread_detach(t);
}

int main(void) {
    start();
    for (;;) {
        pthread_mutex_lock(&m);
        int d = done;
        pthread_mutex_unlock(&m);
        if (d)
            break;
    }
    return 0;
}
