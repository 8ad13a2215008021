// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42
// Two readers split a record list with strsep (the usual `char *rest =
// line;` loop, whose pointer into the line stays in the thread's own
// memory) and count the non-empty records in a shared counter, incremented
// without a lock: an increment can be lost.
#include <pthread.h>
#include <string.h>
#include <assert.h>

static int records;

static int count_records(char *line) {
    int n = 0;
    char *rest = line;
    char *field;
    while ((field = strsep(&rest, ";")) != NULL)
        if (*field != '\0')
            n++;
    return n;
}

static void *reader(void *arg) {
    char line[64];
    strcpy(line, (const char *)arg);
    int n = count_records(line);
    for (int i = 0; i < n; i++) {
        int seen = records;
        records = seen + 1;
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, reader, "alice;bob;;carol");
    pthread_create(&b, NULL, reader, "dave;erin");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    // alice, bob, carol, dave, erin
    assert(records == 5);
    return 0;
}
