// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// Two workers meet at a barrier, and the one whose pthread_barrier_wait
// returns PTHREAD_BARRIER_SERIAL_THREAD records itself as the leader. main
// assumes the first worker always leads; but the serial thread is whichever
// arrives last, so the second worker leads when it arrives after the first.
#include <assert.h>
#include <pthread.h>

static pthread_barrier_t bar;
static int leader = -1;
static int work[2];

static void *worker(void *arg) {
    int id = *(int *)arg;
    work[id] = 10 * (id + 1);
    if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
        leader = id;
    return 0;
}

int main(void) {
    pthread_barrier_init(&bar, 0, 2);
    pthread_t a, b;
    int ids[2] = {0, 1};
    pthread_create(&a, 0, worker, &ids[0]);
    pthread_create(&b, 0, worker, &ids[1]);
    pthread_join(a, 0);
    pthread_join(b, 0);
    /* wrong assumption: the first worker always leads */
    assert(leader == 0);
    return 0;
}
