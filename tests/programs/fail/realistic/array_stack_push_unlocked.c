// causa: expect=bug:assertion-violation
// causa: check=bug
// Two threads push onto an array stack with `stack[top++] = v` and no lock:
// both can read the same `top`, one value overwrites the other and `top`
// ends one short. main pops what is left and the sum misses a value. The
// pop loop's path decides the failure, so the alternate also runs it once
// more; the branch's read is told once (it was told twice).
#include <assert.h>
#include <pthread.h>

#define CAP 8
static int stack[CAP];
static int top;

static void push(int v) { stack[top++] = v; }
static int pop(void) { return stack[--top]; }

static void *pusher(void *arg) {
    int base = (int)(long)arg;
    push(base);
    push(base + 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, pusher, (void *)10);
    pthread_create(&b, 0, pusher, (void *)20);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int sum = 0;
    while (top > 0)
        sum += pop();
    assert(sum == 10 + 11 + 20 + 21);
    return 0;
}
