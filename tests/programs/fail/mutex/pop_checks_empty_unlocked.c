// causa: expect=bug:assertion-violation
// causa: check=bug
// A stack with one element and two poppers: pop tests for an empty stack
// before it takes the lock, so both can pass the test and the second pops
// below zero.
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int items[4];
static int top;

static void push(int v) {
    pthread_mutex_lock(&m);
    items[top++] = v;
    pthread_mutex_unlock(&m);
}

static int pop(void) {
    if (top == 0) /* bug: tested without the lock */
        return -1;
    pthread_mutex_lock(&m);
    top--;
    assert(top >= 0);
    int v = items[top];
    pthread_mutex_unlock(&m);
    return v;
}

static void *popper(void *arg) {
    (void)arg;
    pop();
    return 0;
}

int main(void) {
    pthread_t a, b;
    push(10);
    pthread_create(&a, 0, popper, 0);
    pthread_create(&b, 0, popper, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
