// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=29
// Double buffering: the writer prepares the next status line in the spare
// buffer and publishes it by pointing `current` at it. It publishes first
// and fills the buffer second, so a reader that follows the pointer in
// between copies an empty line.
#include <assert.h>
#include <pthread.h>
#include <string.h>

static char lines[2][24] = {"status: starting", ""};
static char *current = lines[0];

static void *writer(void *arg) {
    (void)arg;
    char *spare = lines[1];
    current = spare;                      /* bug: published before it is filled */
    strcpy(spare, "status: running");
    return NULL;
}

static void *reader(void *arg) {
    (void)arg;
    char shown[24];
    char *line = current;
    strcpy(shown, line);
    /* every status line starts with its tag */
    assert(strncmp(shown, "status:", 7) == 0);
    return NULL;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&r, NULL, reader, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    return 0;
}
