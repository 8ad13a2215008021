// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// A stack pushed and popped under a mutex, but pop checks that it is not
// empty before taking the mutex: two consumers both see the last item and
// both pop it. (Each consumer's turns call pop and differ only in its loop
// counter: the busy-wait detection once took two turns that found the
// stack empty for a spin and reported a deadlock instead.)

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define CAP 64
int stack[CAP];
int top = 0;
pthread_mutex_t sm = PTHREAD_MUTEX_INITIALIZER;

void push(int v) {
    pthread_mutex_lock(&sm);
    stack[top] = v;
    top = top + 1;
    pthread_mutex_unlock(&sm);
}

int pop(void) {
    int v = -1;
    if (top > 0) { /* BUG: checked before taking sm */
        pthread_mutex_lock(&sm);
        top = top - 1;
        assert(top >= 0);
        v = stack[top];
        pthread_mutex_unlock(&sm);
    }
    return v;
}

void *producer(void *arg) {
    (void)arg;
    for (int i = 0; i < 4; i++)
        push(i + 1);
    return NULL;
}

void *consumer(void *arg) {
    int *got = arg;
    for (int i = 0; i < 4; i++) {
        int v = pop();
        if (v > 0)
            (*got)++;
    }
    return NULL;
}

int main(void) {
    pthread_t p, c1, c2;
    int g1 = 0, g2 = 0;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c1, NULL, consumer, &g1);
    pthread_create(&c2, NULL, consumer, &g2);
    pthread_join(p, NULL);
    pthread_join(c1, NULL);
    pthread_join(c2, NULL);
    printf("popped %d\n", g1 + g2);
    return 0;
}
