// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=30
// Two loggers append a word each to one shared line as `strcat` would,
// measuring it with `strlen` and copying the word to its end, without a
// lock: both measure the line before either copies, and the second copy
// lands on the first. The copy's address is the line plus a length the
// schedule decides, which may be any byte of it: the explanation said
// "an access through a symbolic address whose possible targets are
// unknown" (with a 64-condition expression) and explained nothing.
#include <assert.h>
#include <pthread.h>
#include <string.h>

char line[64];

void *logger(void *arg) {
    const char *word = arg;
    size_t len = strlen(line);
    strcpy(line + len, word);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, logger, "ab ");
    pthread_create(&b, 0, logger, "cd ");
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(strlen(line) == 6);
    return 0;
}
