// causa: expect=bug:division-by-zero
// causa: check=bug
// causa: at-line=28
// The reporter computes the average without waiting for the producer to
// record anything. If it runs first, `nitems` is still 0.

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int sum = 0;
int nitems = 0;

void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 3; i++) {
        pthread_mutex_lock(&m);
        sum += i * 10;
        nitems++;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

void *reporter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    int avg = sum / nitems;
    pthread_mutex_unlock(&m);
    printf("average=%d\n", avg);
    return NULL;
}

int main(void) {
    pthread_t p, r;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&r, NULL, reporter, NULL);
    pthread_join(p, NULL);
    pthread_join(r, NULL);
    return 0;
}
