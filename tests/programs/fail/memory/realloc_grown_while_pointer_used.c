// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=25
// A reader takes the array's pointer and length under the lock, releases
// it and then sums the items through the pointer; main grows the array
// with realloc under the same lock, which moves the block the reader is
// still walking. The fix is the reader's: hold the lock through the walk
// (or copy the items while holding it). Main joins the reader afterwards,
// so "join before the free" is not the fix (the summary said so).
#include <pthread.h>
#include <stdlib.h>

int *items;
int count = 4;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *reader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int *p = items;
    int n = count;
    pthread_mutex_unlock(&m);
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += p[i];
    return (void *)sum;
}

int main(void) {
    items = malloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++)
        items[i] = i;
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    pthread_mutex_lock(&m);
    items = realloc(items, 16 * sizeof(int));
    for (int i = 4; i < 16; i++)
        items[i] = i;
    count = 16;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    free(items);
    return 0;
}
