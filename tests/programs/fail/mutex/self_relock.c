// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=17
// record() holds the (default, non-recursive) table lock and calls
// table_size(), which takes the same lock again. Relocking a normal mutex
// blocks forever. The worker has already been joined, so main is the last
// thread to block, always at the inner lock.

#include <pthread.h>
#include <stdio.h>

pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
int table[4];
int used = 0;

static int table_size(void) {
    pthread_mutex_lock(&table_lock);
    int n = used;
    pthread_mutex_unlock(&table_lock);
    return n;
}

static void record(int value) {
    pthread_mutex_lock(&table_lock);
    if (table_size() < 4)
        table[used++] = value;
    pthread_mutex_unlock(&table_lock);
}

void *loader(void *arg) {
    (void)arg;
    pthread_mutex_lock(&table_lock);
    table[used++] = 1;
    pthread_mutex_unlock(&table_lock);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, loader, NULL);
    pthread_join(t, NULL);
    record(2);
    printf("used=%d\n", used);
    return 0;
}
