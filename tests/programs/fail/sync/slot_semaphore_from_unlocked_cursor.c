// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=28,39
// Producers pick a slot from a shared cursor and post that slot's
// semaphore (`sem_post(&ready[s % 2])`, at an address computed from the
// cursor) after filling it; the cursor is read and bumped without a lock,
// so two producers can fill the same slot and a consumer waits forever on
// the other. (Explaining it said "sem_wait through an address computed
// from shared data" was unsupported.)
#include <pthread.h>
#include <semaphore.h>

sem_t ready[2];
int data[2];
int cursor;

void *producer(void *arg) {
    int v = *(int *)arg;
    int s = cursor;          /* BUG: read and bump not atomic */
    cursor = s + 1;
    data[s % 2] = v;
    sem_post(&ready[s % 2]);
    return 0;
}

void *consumer(void *arg) {
    int s = *(int *)arg;
    sem_wait(&ready[s]);
    return 0;
}

int main(void) {
    for (int i = 0; i < 2; i++) sem_init(&ready[i], 0, 0);
    pthread_t p[2], c[2];
    int vs[2] = {5, 6}, ss[2] = {0, 1};
    for (int i = 0; i < 2; i++) pthread_create(&c[i], 0, consumer, &ss[i]);
    for (int i = 0; i < 2; i++) pthread_create(&p[i], 0, producer, &vs[i]);
    for (int i = 0; i < 2; i++) pthread_join(p[i], 0);
    for (int i = 0; i < 2; i++) pthread_join(c[i], 0);
    return 0;
}
