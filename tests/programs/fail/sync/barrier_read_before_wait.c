// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=22
// Each thread publishes its value and should read its neighbour's only after
// the barrier. The read was moved above pthread_barrier_wait, so a thread can
// see the neighbour's slot still empty.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define N 2

pthread_barrier_t barrier;
int slot[N];

void *worker(void *arg) {
    int id = (int)(long)arg;
    slot[id] = id + 1;
    int other = slot[(id + 1) % N];
    pthread_barrier_wait(&barrier);
    assert(other == (id + 1) % N + 1);
    return NULL;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&barrier, NULL, N);
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&barrier);
    return 0;
}
