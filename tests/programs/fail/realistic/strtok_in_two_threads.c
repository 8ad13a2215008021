// causa: expect=bug:assertion-violation
// causa: solver-unsupported=external function `strtok`
// causa: check=bug
// causa: at-line=20
// Two threads count the words of their own copies of a string with strtok.
// strtok keeps one position for the whole process, so a thread's
// strtok(NULL, …) can go on with the other thread's string: its count is
// wrong. (strtok_r, with a position per caller, is the fix.)

#include <assert.h>
#include <pthread.h>
#include <string.h>

static void *count_words(void *arg) {
    char buf[32];
    strcpy(buf, (const char *)arg);
    int n = 0;
    for (char *w = strtok(buf, " "); w; w = strtok(0, " ")) /* bug: strtok is not thread-safe */
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
