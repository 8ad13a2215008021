// causa: expect=bug:assertion-violation
// causa: iterations=3000
// A parallel file scanner's work queue (CLAP's pfscan): main queues the
// files, workers take them and add up their matches. A worker tests the
// queue's occupancy without the lock and then dequeues under it; two workers
// can both pass the test for the last file and the second dequeues past the
// end: an empty slot (file id 0) is scanned.

#include <assert.h>
#include <pthread.h>

#ifndef FILES
#define FILES 4
#endif
#define QSIZE 8

int queue[QSIZE];
int q_head, q_count;
int matches;
pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m_lock = PTHREAD_MUTEX_INITIALIZER;

static int scan(int file) {
    /* a stand-in for matching a pattern in the file's lines */
    int n = 0;
    for (int line = 0; line < 4; line++)
        if ((file * 7 + line) % 3 == 0)
            n++;
    return n;
}

void *worker(void *arg) {
    /* BUG: the occupancy test is not atomic with the dequeue */
    while (q_count > 0) {
        pthread_mutex_lock(&q_lock);
        int file = queue[q_head % QSIZE];
        queue[q_head % QSIZE] = 0;
        q_head = q_head + 1;
        q_count = q_count - 1;
        pthread_mutex_unlock(&q_lock);
        assert(file != 0);
        int n = scan(file);
        pthread_mutex_lock(&m_lock);
        matches = matches + n;
        pthread_mutex_unlock(&m_lock);
    }
    return 0;
}

int main(void) {
    for (int f = 1; f <= FILES; f++) {
        queue[f - 1] = f;
        q_count = q_count + 1;
    }
    pthread_t w1, w2;
    pthread_create(&w1, 0, worker, 0);
    pthread_create(&w2, 0, worker, 0);
    pthread_join(w1, 0);
    pthread_join(w2, 0);
    return 0;
}
