// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42
// Two producers append nodes to a linked queue under its lock, but count
// them after the unlock: both can read the same count and one increment
// is lost. Appending writes through the tail pointer read from the queue
// (`q.tail->next = n`), which the walk in main follows (`p = p->next`).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct node { int value; struct node *next; };
struct queue { struct node *head, *tail; int count; pthread_mutex_t lock; };

static struct queue q;

static void push(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = NULL;
    pthread_mutex_lock(&q.lock);
    if (q.tail) q.tail->next = n; else q.head = n;
    q.tail = n;
    pthread_mutex_unlock(&q.lock);
    q.count++;
}

static void *producer(void *arg) {
    for (int i = 0; i < 2; i++) push((int)(long)arg * 10 + i);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_mutex_init(&q.lock, NULL);
    pthread_create(&a, NULL, producer, (void *)1);
    pthread_create(&b, NULL, producer, (void *)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    int n = 0;
    for (struct node *p = q.head; p; p = p->next) n++;
    assert(n == q.count);
    return 0;
}
