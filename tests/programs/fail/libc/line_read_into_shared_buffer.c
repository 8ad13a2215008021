// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=20
// Main reads a line from a file with fgets straight into a shared buffer
// while a reader thread it already started copies that buffer: the copy
// can come before the line. (fgets into shared memory is one visible write
// of the bytes it delivered; before, it was not an event at all and
// `causa check` said verified.)
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <assert.h>

static char line[32];

static void *reader(void *arg) {
    (void)arg;
    char copy[32];
    strcpy(copy, line);
    assert(copy[0] == 'h');
    return NULL;
}

int main(void) {
    FILE *f = fopen("causa_shared_line.txt", "w");
    assert(f != NULL);
    fputs("hello\n", f);
    fclose(f);
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    f = fopen("causa_shared_line.txt", "r");
    assert(f != NULL);
    fgets(line, sizeof line, f);
    fclose(f);
    pthread_join(t, NULL);
    return 0;
}
