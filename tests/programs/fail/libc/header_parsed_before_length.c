// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=35
// A producer rewrites a text header in two steps: the new id with a
// placeholder length ("id=1f len=0"), then the length. A consumer parses
// the header with sscanf (the id in hex) while the producer runs, and
// checks that a new header has a length: between the two steps it finds
// the new id with the placeholder.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char header[24] = "id=0 len=0";

static void *producer(void *arg) {
    (void)arg;
    strcpy(header, "id=1f len=0");
    strcpy(header + 10, "12");
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    unsigned id = 0;
    int length = -1;
    if (sscanf(header, "id=%x len=%d", &id, &length) != 2) {
        printf("no header\n");
        return 0;
    }
    if (id == 0)
        return 0; /* the old header: nothing to check */
    printf("header %x of length %d\n", id, length);
    /* A new header has its length. */
    assert(length > 0);
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
