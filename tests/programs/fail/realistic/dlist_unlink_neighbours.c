// causa: expect=bug:assertion-violation
// causa: check=bug
// Two threads unlink neighbouring nodes of a circular doubly linked list
// without a lock: each reads links the other rewrites, and a removed node
// stays reachable from the head. The walk's check reads `x->v` twice (both
// sides of the `&&`), the same location with the same values: told once.
#include <pthread.h>
#include <assert.h>
struct node { struct node *prev, *next; int v; };
static struct node n[4];
static void unlink_node(struct node *x) {
    struct node *p = x->prev, *q = x->next;
    p->next = q;
    q->prev = p;
}
static void *rm1(void *a) { (void)a; unlink_node(&n[1]); return 0; }
static void *rm2(void *a) { (void)a; unlink_node(&n[2]); return 0; }
int main(void) {
    for (int i = 0; i < 4; i++) { n[i].v = i; n[i].prev = &n[(i + 3) % 4]; n[i].next = &n[(i + 1) % 4]; }
    pthread_t a, b;
    pthread_create(&a, 0, rm1, 0);
    pthread_create(&b, 0, rm2, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int count = 0;
    for (struct node *x = n[0].next; x != &n[0]; x = x->next) {
        assert(x->v != 1 && x->v != 2);
        count++;
    }
    assert(count == 1);
    return 0;
}
