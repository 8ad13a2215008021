// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=33,35
// A free list shared by two poppers: push takes the lock, but pop reads
// the head before it. Both poppers can take the same node; the second
// reads the node the first already freed (its next at :33, or its value
// at :35). Each popper's read of head falls between the other's read and
// write of it: the summary says "make lines 29–33 atomic" once (it was said
// once per thread).
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct node { int val; struct node *next; };
static struct node *head = NULL;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int popped_sum = 0;

static void push(int v) {
    struct node *n = malloc(sizeof *n);
    n->val = v;
    pthread_mutex_lock(&m);
    n->next = head;
    head = n;
    pthread_mutex_unlock(&m);
}

static int pop(void) {
    struct node *n = head;                 /* BUG: read without the lock */
    if (n == NULL)
        return 0;
    pthread_mutex_lock(&m);
    head = n->next;
    pthread_mutex_unlock(&m);
    int v = n->val;
    free(n);
    return v;
}

static void *popper(void *arg) {
    (void)arg;
    int v = pop();
    pthread_mutex_lock(&m);
    popped_sum += v;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void) {
    push(1);
    push(2);
    pthread_t a, b;
    pthread_create(&a, NULL, popper, NULL);
    pthread_create(&b, NULL, popper, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(popped_sum == 3);
    return 0;
}
