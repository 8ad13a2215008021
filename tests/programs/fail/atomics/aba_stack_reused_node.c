// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=61
// A lock-free (Treiber) stack over nodes that are never freed, only
// reused: a popper reads `top` and `top->next`, and before its CAS another
// thread pops two nodes and pushes the first back. `top` is the same node
// again, so the CAS succeeds and installs the stale `next`: a node the
// other thread still holds is back on the stack (the ABA problem without
// a free). Counting the stack at the end finds one node too many.
#include <assert.h>
#include <pthread.h>

struct node { int value; struct node *next; };
static struct node *top;
static struct node nodes[3];

static void push(struct node *n) {
    struct node *old;
    do {
        old = __atomic_load_n(&top, __ATOMIC_SEQ_CST);
        n->next = old;
    } while (!__atomic_compare_exchange_n(&top, &old, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
}

static struct node *pop(void) {
    struct node *old, *next;
    do {
        old = __atomic_load_n(&top, __ATOMIC_SEQ_CST);
        if (!old)
            return 0;
        next = old->next;
    } while (!__atomic_compare_exchange_n(&top, &old, next, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}

static void *popper(void *arg) {
    (void)arg;
    pop();
    return 0;
}

static void *recycler(void *arg) {
    (void)arg;
    struct node *a = pop();
    pop();          /* kept by this thread */
    if (a)
        push(a);    /* the first one goes back */
    return 0;
}

int main(void) {
    for (int i = 2; i >= 0; i--) { nodes[i].value = i + 1; push(&nodes[i]); }
    pthread_t t1, t2;
    pthread_create(&t1, 0, popper, 0);
    pthread_create(&t2, 0, recycler, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    int count = 0;
    for (struct node *n = top; n; n = n->next)
        count++;
    assert(count == 1);
    return 0;
}
