// causa: expect=no-bug
// causa: check=verified
// Three threads compute in two phases separated by a barrier. Each thread
// writes only its own slot in a phase and reads other slots only after the
// barrier that ends the phase that wrote them, so every read sees final data.

#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define N 3

pthread_barrier_t barrier;
int phase1[N];
int phase2[N];

void *worker(void *arg) {
    int id = (int)(long)arg;

    phase1[id] = id + 1;
    pthread_barrier_wait(&barrier);

    int left = phase1[(id + N - 1) % N];
    int right = phase1[(id + 1) % N];
    phase2[id] = left + right;
    pthread_barrier_wait(&barrier);

    int total = 0;
    for (int i = 0; i < N; i++)
        total += phase2[i];
    assert(total == 2 * (1 + 2 + 3));
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
