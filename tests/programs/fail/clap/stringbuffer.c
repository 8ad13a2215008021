// causa: expect=bug:assertion-violation
// causa: iterations=3000
// Java's StringBuffer.append(StringBuffer) atomicity violation (CLAP's
// stringbuffer, after Flanagan and Freund): append reads the other buffer's
// length under that buffer's lock, releases it, then copies that many
// characters under the lock again. A concurrent erase of the other buffer in
// between leaves the copy reading past the other buffer's length.

#include <assert.h>
#include <pthread.h>

#define CAP 8

struct sbuf {
    char data[CAP];
    int count;
    pthread_mutex_t lock;
};

struct sbuf a = { "ab", 2, PTHREAD_MUTEX_INITIALIZER };
struct sbuf b = { "xyz", 3, PTHREAD_MUTEX_INITIALIZER };

static int length(struct sbuf *s) {
    pthread_mutex_lock(&s->lock);
    int n = s->count;
    pthread_mutex_unlock(&s->lock);
    return n;
}

static void get_chars(struct sbuf *s, int n, char *dst) {
    pthread_mutex_lock(&s->lock);
    assert(n <= s->count); /* StringIndexOutOfBoundsException */
    for (int i = 0; i < n; i++)
        dst[i] = s->data[i];
    pthread_mutex_unlock(&s->lock);
}

static void append(struct sbuf *s, struct sbuf *other) {
    int n = length(other); /* BUG: stale by the time the characters are copied */
    char tmp[CAP];
    get_chars(other, n, tmp);
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < n && s->count < CAP; i++)
        s->data[s->count++] = tmp[i];
    pthread_mutex_unlock(&s->lock);
}

static void erase(struct sbuf *s) {
    pthread_mutex_lock(&s->lock);
    s->count = 0;
    pthread_mutex_unlock(&s->lock);
}

void *appender(void *arg) {
    append(&a, &b);
    return 0;
}

void *eraser(void *arg) {
    erase(&b);
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, appender, 0);
    pthread_create(&t2, 0, eraser, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
