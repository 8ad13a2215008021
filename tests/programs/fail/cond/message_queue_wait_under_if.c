// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42
// A bounded queue of messages (an id and a short text): `send` copies the
// text into the slot at the queue's tail with strcpy, at an index read
// from shared memory that wraps around. The consumers wait under `if`,
// not `while`: a consumer woken by a signal can find the message taken by
// the other consumer in the meantime, and copies out an empty slot.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define CAP 2
struct msg { int id; char text[12]; };
static struct msg q[CAP];
static int n_items, in, out;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;

static void send(int id, const char *text) {
    pthread_mutex_lock(&m);
    while (n_items == CAP) pthread_cond_wait(&not_full, &m);
    q[in].id = id;
    strcpy(q[in].text, text);
    in = (in + 1) % CAP;
    n_items++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&m);
}

static void *consumer(void *arg) {
    (void)arg;
    for (int k = 0; k < 2; k++) {
        pthread_mutex_lock(&m);
        if (n_items == 0) pthread_cond_wait(&not_empty, &m);   /* bug: if, not while */
        struct msg got = q[out];
        out = (out + 1) % CAP;
        n_items--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
        assert(got.text[0] != 0);
        printf("%d %s\n", got.id, got.text);
    }
    return NULL;
}

static void *producer(void *arg) {
    send(1, arg);
    send(2, arg);
    return NULL;
}

int main(void) {
    pthread_t c1, c2, p1, p2;
    pthread_create(&c1, NULL, consumer, NULL);
    pthread_create(&c2, NULL, consumer, NULL);
    pthread_create(&p1, NULL, producer, "hello");
    pthread_create(&p2, NULL, producer, "world");
    pthread_join(p1, NULL);
    pthread_join(p2, NULL);
    pthread_join(c1, NULL);
    pthread_join(c2, NULL);
    return 0;
}
