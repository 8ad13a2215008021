// causa: expect=error:compile-error
// The source is not valid C (missing semicolon and an unbalanced brace), so
// clang fails and causa must report a compile error instead of running it.

#include <pthread.h>

int counter = 0

void *worker(void *arg) {
    counter++;
    return arg;

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    return 0;
}
