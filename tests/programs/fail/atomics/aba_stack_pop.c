// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=26
// A lock-free (Treiber) stack whose pop frees the node it took: a second
// popper that read the same top reads `old->next` of a node the first
// already freed (the ABA problem's use after free).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct node { int value; struct node *next; };
static _Atomic(struct node *) top;

static void push(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    struct node *old = atomic_load(&top);
    do n->next = old;
    while (!atomic_compare_exchange_weak(&top, &old, n));
}

static int pop(void) {
    struct node *old = atomic_load(&top);
    while (old) {
        struct node *next = old->next;
        if (atomic_compare_exchange_weak(&top, &old, next)) {
            int v = old->value;
            free(old);
            return v;
        }
    }
    return -1;
}

static void *worker(void *arg) {
    (void)arg;
    int v = pop();
    if (v >= 0)
        push(v);
    return 0;
}

int main(void) {
    push(1);
    push(2);
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int n = 0;
    while (pop() >= 0)
        n++;
    assert(n == 2);
    return 0;
}
