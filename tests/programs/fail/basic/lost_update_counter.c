// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=27
// Two threads increment a shared counter without any locking. The read and
// the write of `counter++` are separate steps, so one thread's update can be
// overwritten by the other and the final count is below 4.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

int counter = 0;

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++)
        counter++;
    return NULL;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, NULL, worker, NULL);
    pthread_create(&t2, NULL, worker, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    assert(counter == 4);
    return 0;
}
