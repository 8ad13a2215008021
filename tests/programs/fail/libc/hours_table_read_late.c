// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A timesheet tool: main writes the week's file, then starts the report
// thread and only then loads the table with fscanf straight into the shared
// array (the header's count parsed with sscanf). The report can sum the
// hours before they are loaded. fscanf into shared memory is one visible
// access writing the values; symbolic execution (explain) scans again the
// bytes the run consumed, from the path log.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <assert.h>

#define PATH "causa_timesheet.txt"
#define MAX 8

struct entry {
    char name[16];
    int hours;
};

static struct entry table[MAX];
static int entries;

static void *report(void *arg) {
    (void)arg;
    int total = 0;
    for (int i = 0; i < MAX; i++)
        total += table[i].hours;
    printf("total hours: %d\n", total);
    assert(total == 38);
    return NULL;
}

int main(void) {
    FILE *out = fopen(PATH, "w");
    assert(out != NULL);
    fputs("count=3\nana 12\nben 16\ncho 10\n", out);
    fclose(out);

    pthread_t reporter;
    pthread_create(&reporter, NULL, report, NULL);

    FILE *in = fopen(PATH, "r");
    assert(in != NULL);
    char header[32];
    int count = 0;
    if (!fgets(header, sizeof header, in) || sscanf(header, "count=%d", &count) != 1 || count > MAX)
        return 1;
    int n = 0;
    while (n < count && fscanf(in, "%15s %d", table[n].name, &table[n].hours) == 2)
        n++;
    entries = n;
    fclose(in);
    pthread_join(reporter, NULL);
    return 0;
}
