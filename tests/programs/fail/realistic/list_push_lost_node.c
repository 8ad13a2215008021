// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=40
// Two threads push onto a shared singly linked stack without a lock: each
// push reads `head`, links its node to it and writes `head` back, so a push
// between another's read and write is lost. The length is checked after
// the list is walked, so the walk's path (how many nodes it visits) decides
// the failure: an alternate that only makes the walk go one node further
// loses another node and fails the same way.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct node { int v; struct node *next; };
static struct node *head;

static void push(int v) {
    struct node *n = malloc(sizeof *n);
    n->v = v;
    n->next = head;
    head = n;
}

static void *pusher(void *arg) {
    int base = *(int *)arg;
    for (int i = 0; i < 2; i++) push(base + i);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int x = 0, y = 10;
    pthread_create(&a, 0, pusher, &x);
    pthread_create(&b, 0, pusher, &y);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int count = 0;
    for (struct node *n = head; n; n = n->next)
        count++;
    assert(count == 4);
    return 0;
}
