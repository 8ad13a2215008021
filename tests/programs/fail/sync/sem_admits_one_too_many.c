// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=21
// Three producers each take a unit of a semaphore that should count the
// two free slots but starts at 3, then store into the next slot under a
// mutex: whichever producer comes third writes past the end of `slots`, in
// every order of the threads. An alternate order only moves the failure to
// another thread; the explanation must say so rather than present the
// differences as the cause.
#include <pthread.h>
#include <semaphore.h>

sem_t free_slots;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int slots[2];
int used;

void *producer(void *arg) {
    sem_wait(&free_slots);
    pthread_mutex_lock(&m);
    slots[used] = *(int *)arg;
    used++;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[3];
    int v[3] = {1, 2, 3};
    sem_init(&free_slots, 0, 3); /* BUG: two slots */
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, producer, &v[i]);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
