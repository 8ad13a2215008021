// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=66
// A work-stealing deque (after Chase and Lev) whose owner takes the last
// task without claiming it: `pop` lowers `bottom`, reads `top` and, when
// the deque is not empty, takes the task at `bottom`; `steal` claims the
// task at `top` with a compare-and-exchange. When one task is left both
// can take it: pop, as `top` is not past `bottom`, and steal, which read
// `bottom` before pop lowered it. Chase and Lev's pop claims the last task
// with the same compare-and-exchange on `top`. The summary tells the
// claim pop skips (it told only the data flows).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#define N 4
static int tasks[N];
static atomic_int top, bottom;
static int taken[N];

static void push(int v) {
    int b = atomic_load(&bottom);
    tasks[b % N] = v;
    atomic_store(&bottom, b + 1);
}

static int pop(void) {
    int b = atomic_load(&bottom) - 1;
    atomic_store(&bottom, b);
    int t = atomic_load(&top);
    if (t > b) {
        atomic_store(&bottom, b + 1);
        return -1;
    }
    return tasks[b % N];
}

static int steal(void) {
    int t = atomic_load(&top);
    int b = atomic_load(&bottom);
    if (t >= b)
        return -1;
    int v = tasks[t % N];
    if (!atomic_compare_exchange_strong(&top, &t, t + 1))
        return -1;
    return v;
}

static void *thief(void *arg) {
    int v = steal();
    if (v >= 0)
        taken[v]++;
    return 0;
}

int main(void) {
    push(0);
    push(1);
    pthread_t th;
    pthread_create(&th, 0, thief, 0);
    int v;
    while ((v = pop()) >= 0)
        taken[v]++;
    pthread_join(th, 0);
    for (int i = 0; i < 2; i++)
        assert(taken[i] == 1);
    return 0;
}
