// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=28
// A form field holds a quantity as text. The reader converts it with
// strtol and checks, through the end pointer, that the whole field was a
// number; an autocompletion thread replaces the text meanwhile with an
// entry that has a unit after the digits. strtol of a string in shared
// memory is one visible read; its end pointer points into the field at a
// place the schedule decides, and the read through it is resolved by the
// solver.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

static char field[12] = "12";

static void *autocomplete(void *arg) {
    (void)arg;
    strcpy(field, "345kg");
    return NULL;
}

static void *reader(void *arg) {
    (void)arg;
    char *end;
    long n = strtol(field, &end, 10);
    assert(*end == '\0' && n < 100);
    return NULL;
}

int main(void) {
    pthread_t a, r;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&a, NULL, autocomplete, NULL);
    pthread_join(a, NULL);
    pthread_join(r, NULL);
    return 0;
}
