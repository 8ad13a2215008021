// causa: expect=no-bug
// causa: check=verified
// A binary semaphore (initial value 1) serves as a lock around the counter
// update, so the read-modify-write sequences of the threads never overlap.

#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>

sem_t sem;
int counter = 0;

void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        sem_wait(&sem);
        int v = counter;
        counter = v + 1;
        sem_post(&sem);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b, c;
    sem_init(&sem, 0, 1);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_create(&c, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    assert(counter == 6);
    return 0;
}
