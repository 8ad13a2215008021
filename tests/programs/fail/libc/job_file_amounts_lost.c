// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42
// The main thread writes a small job file, reads it back line by line with
// fgets and hands each line's amount to a worker; the workers add their
// amounts to a shared total with a read and a separate write: an addition
// can be lost. (The file is kept in memory: causa never writes to disk.)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

static int total;

static void *worker(void *arg) {
    int amount = *(const int *)arg;
    int seen = total;
    total = seen + amount;
    return NULL;
}

int main(void) {
    FILE *f = fopen("causa_jobs.txt", "w");
    assert(f != NULL);
    fputs("amount 5\namount 7\n", f);
    fclose(f);
    f = fopen("causa_jobs.txt", "r");
    assert(f != NULL);
    char line[32];
    int amounts[2];
    int n = 0;
    while (n < 2 && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "amount ", 7) == 0)
            amounts[n++] = atoi(line + 7);
    fclose(f);
    pthread_t t[2];
    for (int i = 0; i < n; i++)
        pthread_create(&t[i], NULL, worker, &amounts[i]);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    assert(total == 12);
    return 0;
}
