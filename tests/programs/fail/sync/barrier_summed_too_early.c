// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// Two workers each fill their element and meet at a barrier; worker 0
// sums the table, but before the barrier instead of after it, so it can
// sum before worker 1 has filled its element.
#include <assert.h>
#include <pthread.h>

#define N 2
static int data[N];
static int total;
static pthread_barrier_t b;

static void *worker(void *arg) {
    int id = (int)(long)arg;
    data[id] = id + 1;
    if (id == 0)
        total = data[0] + data[1];
    pthread_barrier_wait(&b);
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&b, 0, N);
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    assert(total == 3);
    return 0;
}
