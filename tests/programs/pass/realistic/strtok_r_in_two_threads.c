// causa: expect=no-bug
// causa: check=verified
// The fix of fail/realistic/strtok_in_two_threads.c: strtok_r keeps the
// position in each caller's own variable, so the two threads' counts are
// independent.

#include <assert.h>
#include <pthread.h>
#include <string.h>

static void *count_words(void *arg) {
    char buf[32], *save;
    strcpy(buf, (const char *)arg);
    int n = 0;
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(0, " ", &save))
        n++;
    assert(n == 3);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, count_words, "one two three");
    pthread_create(&b, 0, count_words, "four five six");
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
