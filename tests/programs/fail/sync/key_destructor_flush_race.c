// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=35
// Each worker counts its work in thread-specific data, and the key's
// destructor adds the count to a global total when the thread ends, without
// a lock: two workers ending together can lose one count.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_key_t counter_key;
static int total;

static void flush_count(void *p) {
    int *count = p;
    total += *count; /* bug: unlocked read-modify-write at thread end */
    free(count);
}

static void *worker(void *arg) {
    (void)arg;
    pthread_setspecific(counter_key, calloc(1, sizeof(int)));
    for (int i = 0; i < 3; i++)
        ++*(int *)pthread_getspecific(counter_key);
    return 0;
}

int main(void) {
    pthread_key_create(&counter_key, flush_count);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    assert(total == 6);
    return 0;
}
