// causa: expect=bug:assertion-violation
// causa: at-line=59
// causa: check=bug
// An event log reset by main, then appended under a mutex by a starter
// thread and two workers, three entries each. main expects the starter's START entry first, but
// nothing makes the workers wait for it: a worker's append can come first.
// (Nine critical sections write the log's length `n`, and main's reset
// before the threads start: the explanation reads it by the sections'
// order from the reset on, crates/causa-symbolic/src/locked.rs.)

#include <assert.h>
#include <pthread.h>

enum { START = 1, STEP = 2, WORK = 3 };

struct entry {
    int who;
    int what;
};

struct entry log_[16];
int n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void append(int who, int what) {
    pthread_mutex_lock(&m);
    log_[n].who = who;
    log_[n].what = what;
    n = n + 1;
    pthread_mutex_unlock(&m);
}

void *starter(void *arg) {
    (void)arg;
    append(0, START);
    append(0, STEP);
    append(0, STEP);
    return 0;
}

void *worker(void *arg) {
    int id = *(int *)arg;
    for (int i = 0; i < 3; i++)
        append(id, WORK);
    return 0;
}

int main(void) {
    pthread_t s, w[2];
    n = 0;
    log_[0].what = 0;
    int ids[2] = {1, 2};
    pthread_create(&w[0], 0, worker, &ids[0]);
    pthread_create(&s, 0, starter, 0);
    pthread_create(&w[1], 0, worker, &ids[1]);
    pthread_join(s, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(w[i], 0);
    assert(n == 9 && log_[0].what == START);
    return 0;
}
