// causa: expect=no-bug
// causa: check=verified
// SV-COMP style (after lazy01): three threads update `data` under one mutex.
// The checker fires only if data reaches 4, but the two adders contribute
// at most 1 + 2 = 3, so reach_error() is unreachable.

extern void abort(void);
extern void reach_error(void);

#include <pthread.h>

pthread_mutex_t mutex;
int data = 0;

void *thread1(void *arg) {
    pthread_mutex_lock(&mutex);
    data++;
    pthread_mutex_unlock(&mutex);
    return 0;
}

void *thread2(void *arg) {
    pthread_mutex_lock(&mutex);
    data += 2;
    pthread_mutex_unlock(&mutex);
    return 0;
}

void *thread3(void *arg) {
    pthread_mutex_lock(&mutex);
    if (data >= 4) {
        ERROR: { reach_error(); abort(); }
    }
    pthread_mutex_unlock(&mutex);
    return 0;
}

int main(void) {
    pthread_mutex_init(&mutex, 0);
    pthread_t t1, t2, t3;
    pthread_create(&t1, 0, thread1, 0);
    pthread_create(&t2, 0, thread2, 0);
    pthread_create(&t3, 0, thread3, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    return 0;
}
