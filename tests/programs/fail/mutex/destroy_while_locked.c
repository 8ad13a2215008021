// causa: expect=bug:invalid-pthread-use
// causa: check=bug
// causa: at-line=23,39
// main destroys the connection's mutex after joining the closer only: the
// user thread may still hold it (destroying a locked mutex), or take it
// afterwards (using a destroyed mutex). `causa check` said "verified": the
// destroy was not an event of its own.
#include <pthread.h>
#include <stdio.h>

struct conn { pthread_mutex_t lock; int refs; int open; };

static void *closer(void *arg) {
    struct conn *c = arg;
    pthread_mutex_lock(&c->lock);
    c->open = 0;
    pthread_mutex_unlock(&c->lock);
    return 0;
}

static void *user(void *arg) {
    struct conn *c = arg;
    pthread_mutex_lock(&c->lock);
    if (c->open)
        c->refs++;
    pthread_mutex_unlock(&c->lock);
    return 0;
}

int main(void) {
    struct conn c;
    pthread_mutex_init(&c.lock, 0);
    c.refs = 0;
    c.open = 1;
    pthread_t a, b;
    pthread_create(&a, 0, closer, &c);
    pthread_create(&b, 0, user, &c);
    pthread_join(a, 0);
    pthread_mutex_destroy(&c.lock);   /* bug: user may still use it */
    pthread_join(b, 0);
    printf("refs=%d\n", c.refs);
    return 0;
}
