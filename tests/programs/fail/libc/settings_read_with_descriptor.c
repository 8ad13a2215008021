// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=24
// A service starts its worker and then loads the settings file with
// open/read into a shared buffer; the worker parses the buffer without
// waiting for the load, and can find it empty. read() into shared memory
// is one visible write of the bytes it delivered; symbolic execution
// (explain) takes open's descriptor, read's bytes and close's result from
// the recorded path.
#include <pthread.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>

#define PATH "/tmp/causa-settings-read.txt"

static char settings[32];

static void *worker(void *arg) {
    (void)arg;
    int level = atoi(settings);
    assert(level > 0);
    return NULL;
}

int main(void) {
    FILE *out = fopen(PATH, "w");
    if (!out)
        return 1;
    fputs("7 workers\n", out);
    fclose(out);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    int fd = open(PATH, O_RDONLY);
    if (fd < 0)
        return 1;
    ssize_t n = read(fd, settings, sizeof settings - 1);
    close(fd);
    pthread_join(t, NULL);
    return n > 0 ? 0 : 1;
}
