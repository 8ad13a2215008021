// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=18
// causa: message=not allocated on the heap
// A cleanup routine frees whatever the shared pointer holds; when the worker has
// not replaced the static default yet, it frees a global.
#include <pthread.h>
#include <stdlib.h>

static int fallback[4];
static int *data = fallback;

static void *worker(void *arg) { (void)arg; data = malloc(4 * sizeof(int)); return 0; }

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    free(data);
    pthread_join(t, 0);
    return 0;
}
