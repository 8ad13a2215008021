// causa: expect=bug:invalid-pthread-use
// causa: check=bug
// causa: at-line=18
// main takes the queue lock, fills the queue and hands the rest of the work,
// including "releasing the lock", to a worker thread. The worker never owns
// the mutex, so its unlock is invalid in every schedule.

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
int queue[4];
int queued = 0;

void *finish_batch(void *arg) {
    (void)arg;
    queue[queued++] = 99;
    pthread_mutex_unlock(&queue_lock);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_mutex_lock(&queue_lock);
    queue[queued++] = 1;
    queue[queued++] = 2;
    pthread_create(&t, NULL, finish_batch, NULL);
    pthread_join(t, NULL);
    printf("queued=%d\n", queued);
    return 0;
}
