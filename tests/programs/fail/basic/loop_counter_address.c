// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=28
// The classic mistake of passing the loop counter's address to each
// thread: a worker that reads `*arg` after main's `i++` takes the next
// thread's id, so one slot is counted twice and another never. (Explaining
// it needs main's own reads of `i`, a local whose address other threads
// hold, to index `t[i]` at each pthread_create.)
#include <assert.h>
#include <pthread.h>

#define N 3
static int seen[N];

static void *worker(void *arg) {
    int id = *(int *)arg;   /* main's loop counter: it may have moved on */
    seen[id % N]++;         /* (id may even be N, once the loop ended) */
    return NULL;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, &i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < N; i++)
        assert(seen[i] == 1);
    return 0;
}
