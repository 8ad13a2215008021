// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=27
// A log buffer one thread grows with realloc under the lock; the printer
// takes the buffer's pointer before locking, so the block it reads may be
// the one realloc already moved away from and freed.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *log_buf;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *grower(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    log_buf = realloc(log_buf, 64);
    pthread_mutex_unlock(&m);
    return 0;
}

static void *printer(void *arg) {
    (void)arg;
    char *p = log_buf; /* bug: taken without the lock */
    pthread_mutex_lock(&m);
    char first = p[0];
    pthread_mutex_unlock(&m);
    printf("%c\n", first);
    return 0;
}

int main(void) {
    log_buf = malloc(16);
    strcpy(log_buf, "start");
    pthread_t a, b;
    pthread_create(&a, 0, grower, 0);
    pthread_create(&b, 0, printer, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    free(log_buf);
    return 0;
}
