// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=24
// A CSV importer reads the header line with fgets into a shared buffer
// and starts a thread that checks the header, then reuses the same buffer
// for the first record: the checker can copy the record instead of the
// header. fgets into shared memory is one visible write of the line it
// delivered, which symbolic execution (explain) now follows too.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <assert.h>

#define PATH "causa_import.csv"

static char row[64];
static int header_ok;

static void *check_header(void *arg) {
    (void)arg;
    char header[64];
    strcpy(header, row);
    header_ok = strncmp(header, "name,", 5) == 0;
    assert(header_ok);
    return NULL;
}

int main(void) {
    FILE *out = fopen(PATH, "w");
    assert(out != NULL);
    fputs("name,amount\nalice,10\nbob,20\n", out);
    fclose(out);

    FILE *in = fopen(PATH, "r");
    assert(in != NULL);
    if (!fgets(row, sizeof row, in))
        return 1;
    pthread_t checker;
    pthread_create(&checker, NULL, check_header, NULL);
    int records = 0;
    while (fgets(row, sizeof row, in))
        records++;
    fclose(in);
    pthread_join(checker, NULL);
    remove(PATH);
    printf("%d records\n", records);
    return 0;
}
