// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=50
// A batch importer: main reads each batch's size with getline (its buffer
// allocated by getline, the thread's own until its address escapes) and
// hands the batches to two workers, which add them to a shared total
// without a lock: one addition can be lost. Symbolic execution (explain)
// follows getline from the lines noted in main's path, atoi of main's own
// buffer, and ftell's position.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>

#define PATH "causa_batches.txt"

static long total;

static void *add_batch(void *arg) {
    long size = *(long *)arg;
    long seen = total;
    total = seen + size;
    return NULL;
}

int main(void) {
    FILE *out = fopen(PATH, "w");
    assert(out != NULL);
    fputs("120\n75\n", out);
    fclose(out);

    FILE *in = fopen(PATH, "r");
    assert(in != NULL);
    char *line = NULL;
    size_t cap = 0;
    long sizes[2] = {0, 0};
    int n = 0;
    while (n < 2 && getline(&line, &cap, in) != -1)
        sizes[n++] = atol(line);
    long read_bytes = ftell(in);
    free(line);
    fclose(in);
    if (n != 2 || read_bytes != 7)
        return 1;
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, add_batch, &sizes[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert(total == 195);
    return 0;
}
