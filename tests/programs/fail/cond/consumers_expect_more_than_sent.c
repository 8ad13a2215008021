// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=36
// A producer sends three messages; two consumers each expect two. Every
// consumer waits in a loop on the queue's count, so no signal is lost and
// none wakes the wrong thread: whichever consumer comes last waits for a
// fourth message nobody sends, in every order of the threads.
#include <pthread.h>
#include <stdio.h>

#define SENT 3
#define PER_CONSUMER 2

static int queue[8];
static int count, head, tail;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 0; i < SENT; i++) {
        pthread_mutex_lock(&m);
        queue[tail++ % 8] = i;
        count++;
        pthread_cond_signal(&nonempty);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void *consumer(void *arg) {
    int id = *(int *)arg;
    for (int k = 0; k < PER_CONSUMER; k++) {
        pthread_mutex_lock(&m);
        while (count == 0)
            pthread_cond_wait(&nonempty, &m);
        int v = queue[head++ % 8];
        count--;
        pthread_mutex_unlock(&m);
        printf("consumer %d got %d\n", id, v);
    }
    return NULL;
}

int main(void) {
    pthread_t p, c[2];
    int ids[2] = {0, 1};
    pthread_create(&p, NULL, producer, NULL);
    for (int i = 0; i < 2; i++)
        pthread_create(&c[i], NULL, consumer, &ids[i]);
    pthread_join(p, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(c[i], NULL);
    return 0;
}
