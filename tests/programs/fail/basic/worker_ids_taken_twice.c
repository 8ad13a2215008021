// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=27
// Each worker takes an id with `id = next_id++` (not atomic) and counts its
// work in its own slot of `done[]`; main checks every slot was used.
#include <assert.h>
#include <pthread.h>

#define N 3
int next_id;
int done[N];

void *worker(void *arg) {
    (void)arg;
    int id = next_id++;
    done[id] += 1;
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    for (int i = 0; i < N; i++)
        assert(done[i] == 1);
    return 0;
}
