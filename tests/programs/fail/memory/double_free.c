// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=16
// Both threads run the same cleanup path. The NULL check and the reset are
// not atomic, so both can see the buffer as live and free it twice.

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

char *buffer = NULL;

void *cleanup(void *arg) {
    (void)arg;
    if (buffer != NULL) {
        free(buffer);
        buffer = NULL;
    }
    return NULL;
}

int main(void) {
    pthread_t t1, t2;
    buffer = malloc(32);
    if (buffer == NULL)
        return 1;
    strcpy(buffer, "temporary data");
    pthread_create(&t1, NULL, cleanup, NULL);
    pthread_create(&t2, NULL, cleanup, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return 0;
}
