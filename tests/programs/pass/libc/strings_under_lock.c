// causa: expect=no-bug
// causa: check=verified
// causa: stdout=log: ab (2 chars)
// Two threads append to a shared log and one reads its length, all under
// one mutex: every string function on the shared buffer is a scheduling
// point, and no interleaving of the locked sections fails.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char log_text[16];
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *append(void *arg) {
    pthread_mutex_lock(&lock);
    strcat(log_text, (const char *)arg);
    size_t n = strlen(log_text);
    assert(n == 1 || n == 2);
    pthread_mutex_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, append, "a");
    pthread_create(&b, 0, append, "b");
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(strlen(log_text) == 2);
    assert(strchr(log_text, 'a') && strchr(log_text, 'b'));
    printf("log: %s (%zu chars)\n", strcmp(log_text, "ab") == 0 ? "ab" : "ba", strlen(log_text));
    return 0;
}
