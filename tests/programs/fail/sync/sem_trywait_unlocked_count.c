// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=19
// A semaphore of two slots hands out slots with sem_trywait; each client
// counts itself in `in_use` without a lock and checks that it is alone,
// which two clients holding both slots are not: both increments can come
// before either check.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

static sem_t slots;
static int in_use;

static void *client(void *arg) {
    (void)arg;
    if (sem_trywait(&slots) == 0) {
        in_use++;
        assert(in_use <= 1);
        in_use--;
        sem_post(&slots);
    }
    return 0;
}

int main(void) {
    sem_init(&slots, 0, 2);
    pthread_t a, b;
    pthread_create(&a, 0, client, 0);
    pthread_create(&b, 0, client, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
