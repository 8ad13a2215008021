// causa: expect=bug:memory-error
// causa: check=bug
// A reference-counted message buffer shared by the main thread and two
// workers. Each holder calls buf_release when done; the last one frees the
// buffer. The decrement `--b->refs` is a plain read-modify-write, so two
// releases can both read 2 and write 1 (a leak: nobody frees), or, more to the
// point here, two holders can both see the count reach 0 and both free it
// (double free), or one frees while another still reads the payload (use after
// free). Temporary retain/release pairs around each use make the races
// frequent; whichever happens first is a memory error.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORKERS 2

struct buffer {
    int refs;     /* BUG: plain int, updated without a lock or atomics */
    size_t len;
    char data[32];
};

static struct buffer *buf_new(const char *text) {
    struct buffer *b = malloc(sizeof *b);
    assert(b != NULL);
    b->refs = 1;
    b->len = strlen(text);
    assert(b->len < sizeof b->data);
    memcpy(b->data, text, b->len + 1);
    return b;
}

static struct buffer *buf_retain(struct buffer *b) {
    b->refs++;
    return b;
}

static void buf_release(struct buffer *b) {
    int left = --b->refs;
    if (left == 0) {
        memset(b->data, 0, sizeof b->data);
        free(b);
    }
}

static int checksum(const struct buffer *b) {
    int s = 0;
    for (size_t i = 0; i < b->len; i++)
        s += b->data[i];
    return s;
}

/* Hands the buffer to a short-lived user, which holds its own reference. */
static int with_temp_ref(struct buffer *b) {
    struct buffer *tmp = buf_retain(b);
    int s = checksum(tmp);
    buf_release(tmp);
    return s;
}

static void *worker(void *arg) {
    struct buffer *b = arg;
    int s = 0;
    for (int i = 0; i < 2; i++)
        s += with_temp_ref(b);
    buf_release(b);
    return (void *)(long)s;
}

int main(void) {
    struct buffer *b = buf_new("hello");
    pthread_t t[NWORKERS];
    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&t[i], NULL, worker, buf_retain(b));
    int mine = with_temp_ref(b);
    buf_release(b);
    long total = 0;
    for (int i = 0; i < NWORKERS; i++) {
        void *r;
        pthread_join(t[i], &r);
        total += (long)r;
    }
    assert(total == 4L * mine);
    printf("checksum %d, total %ld\n", mine, total);
    return 0;
}
