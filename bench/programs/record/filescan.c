// Parallel file scan (pfscan-like): argv names files; 4 workers take the
// next file index from a shared counter under a lock and count the lines
// containing a pattern.
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char **files;
static int nfiles, next;
static long matches;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    char line[512];
    for (;;) {
        pthread_mutex_lock(&m);
        int i = next < nfiles ? next++ : -1;
        pthread_mutex_unlock(&m);
        if (i < 0)
            return 0;
        FILE *f = fopen(files[i], "r");
        if (!f)
            continue;
        long found = 0;
        while (fgets(line, sizeof line, f))
            if (strstr(line, "causa"))
                found++;
        fclose(f);
        pthread_mutex_lock(&m);
        matches += found;
        pthread_mutex_unlock(&m);
    }
}

int main(int argc, char **argv) {
    files = argv + 1;
    nfiles = argc - 1;
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], 0);
    printf("%ld\n", matches);
    return 0;
}
