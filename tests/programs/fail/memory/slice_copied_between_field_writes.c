// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=37
// A slice {ptr, len} replaced field by field under a lock the reader does
// not take: the reader copies the whole slice between the writer's two
// writes and gets the new length with the old pointer, so its memcpy
// reads past the end of the old buffer. The summary told it as an order
// violation ("making the read wait for that write"); the copy pairs a new
// field with an old one, and the writer's lock over the copy is the fix.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct slice {
    char *ptr;
    int len;
};
struct slice current;
char small[4] = "abc";
char copy[64];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
    (void)arg;
    char *big = malloc(32);
    memset(big, 'x', 32);
    pthread_mutex_lock(&m);
    current.len = 32;
    current.ptr = big;
    pthread_mutex_unlock(&m);
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    struct slice s = current;
    memcpy(copy, s.ptr, s.len);
    return 0;
}

int main(void) {
    current.ptr = small;
    current.len = 4;
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    free(current.ptr);
    return 0;
}
