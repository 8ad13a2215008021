// causa: expect=no-bug
// causa: check=verified
// A worker polls a queue's count a bounded number of times, through a
// function, and gives up: its turns differ only in the caller's loop
// counter. Nobody ever fills the queue, yet the worker ends; the
// busy-wait detection took two turns that read the same 0 for a spin and
// reported a deadlock (crates/causa-interp/src/spin.rs).

#include <pthread.h>
#include <stdio.h>

int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int try_take(void) {
    if (count > 0) {
        pthread_mutex_lock(&m);
        count = count - 1;
        pthread_mutex_unlock(&m);
        return 1;
    }
    return 0;
}

void *worker(void *arg) {
    int got = 0;
    for (int i = 0; i < 4; i++)
        got += try_take();
    *(int *)arg = got;
    return NULL;
}

int main(void) {
    pthread_t w;
    int taken = 0;
    pthread_create(&w, NULL, worker, &taken);
    pthread_join(w, NULL);
    printf("taken %d\n", taken);
    return 0;
}
