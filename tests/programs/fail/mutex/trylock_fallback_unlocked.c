// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=27
// A worker that finds the lock busy updates the counter anyway, without
// it: its update can be lost against the holder's.
#include <pthread.h>
#include <assert.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *worker(void *arg) {
    (void)arg;
    if (pthread_mutex_trylock(&m) == 0) {
        counter++;
        pthread_mutex_unlock(&m);
    } else {
        counter++;              /* bug: updates without the lock when busy */
    }
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    assert(counter == 2);
    return 0;
}
