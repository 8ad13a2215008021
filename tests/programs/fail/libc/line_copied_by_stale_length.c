// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A status line shared by a writer and a reader, without a lock: the
// writer replaces the text and then its length; the reader reads the
// length first, allocates a buffer of that size and copies that many
// bytes of the text out. Reading the old length after the new text was
// written cuts the new line short ("disk" instead of "disk full"). The
// copy's size comes from shared memory: symbolic execution takes the
// run's size and requires the length read to be that value.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

char line[64] = "boot";
size_t line_len = 4;

void *writer(void *arg) {
    (void)arg;
    memcpy(line, "disk full", 10);
    line_len = 9;
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    size_t n = line_len;
    char *copy = malloc(n + 1);
    memcpy(copy, line, n);
    copy[n] = '\0';
    assert(strcmp(copy, "boot") == 0 || strcmp(copy, "disk full") == 0);
    free(copy);
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
