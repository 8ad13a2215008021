// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=49
// A task pool whose submit checks the shutdown flag before taking the
// queue's lock. Shutdown sets the flag and runs what is queued under the
// lock; a submit that checked the flag just before can still enqueue
// after the drain, and its task, accepted, never runs. The check and the
// enqueue belong in one critical section.

#include <assert.h>
#include <pthread.h>

#define CAP 8

static int queue[CAP];
static int queued, ran;
static int shutting_down;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static int submit(int task) {
    if (shutting_down)
        return 0;
    pthread_mutex_lock(&m);
    queue[queued++] = task;
    pthread_mutex_unlock(&m);
    return 1;
}

static void shutdown_pool(void) {
    pthread_mutex_lock(&m);
    shutting_down = 1;
    for (int i = 0; i < queued; i++)
        ran++;
    queued = 0;
    pthread_mutex_unlock(&m);
}

static void *client(void *arg) {
    return (void *)(long)submit(*(int *)arg);
}

int main(void) {
    pthread_t c;
    int task = 5;
    pthread_create(&c, 0, client, &task);
    shutdown_pool();
    void *accepted;
    pthread_join(c, &accepted);
    assert(ran == (int)(long)accepted);
    return 0;
}
