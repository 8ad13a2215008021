// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=36
// An editor thread completes a record by appending its terminator and
// value while a checker thread tests whether the record is complete with
// strchr. Nothing orders the two, so the checker can see the record
// without its ';' and count it as broken. strchr of a string in shared
// memory is one visible read; symbolic execution follows the search, and
// the explanation flips the checker's branch.
#include <pthread.h>
#include <string.h>
#include <assert.h>

static char record[24] = "name";
static int broken;

static void *editor(void *arg) {
    (void)arg;
    strcat(record, ";42");
    return NULL;
}

static void *checker(void *arg) {
    (void)arg;
    if (strchr(record, ';') == NULL)
        broken++;
    return NULL;
}

int main(void) {
    pthread_t e, c;
    pthread_create(&c, NULL, checker, NULL);
    pthread_create(&e, NULL, editor, NULL);
    pthread_join(e, NULL);
    pthread_join(c, NULL);
    assert(broken == 0);
    return 0;
}
