// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=39
// A task queue of small structs: each worker waits for a task under `if`,
// not `while`, and then copies the task out whole (`t = tasks[head]`, at an
// index read from shared memory). Both workers can wait; the first signal
// wakes one, the other worker takes the task before it runs, and it finds
// the queue empty. (Explaining it said "memcpy through an address computed
// from shared data" was unsupported.)
#include <assert.h>
#include <pthread.h>

#define CAP 4

struct task {
    int id;
    int cost;
};

static struct task tasks[CAP];
static int head, pending;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
static int spent[2];

static void put(int id, int cost) {
    pthread_mutex_lock(&m);
    tasks[(head + pending) % CAP].id = id;
    tasks[(head + pending) % CAP].cost = cost;
    pending++;
    pthread_cond_signal(&nonempty);
    pthread_mutex_unlock(&m);
}

static struct task get(void) {
    pthread_mutex_lock(&m);
    if (pending == 0) /* bug: `while` */
        pthread_cond_wait(&nonempty, &m);
    assert(pending > 0);
    struct task t = tasks[head];
    head = (head + 1) % CAP;
    pending--;
    pthread_mutex_unlock(&m);
    return t;
}

static void *worker(void *unused) {
    (void)unused;
    struct task t = get();
    spent[t.id] += t.cost;
    return 0;
}

int main(void) {
    pthread_t w[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&w[i], 0, worker, 0);
    put(0, 10);
    put(1, 20);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], 0);
    return 0;
}
