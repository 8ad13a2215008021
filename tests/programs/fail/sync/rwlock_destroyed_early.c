// causa: expect=bug:invalid-pthread-use
// causa: check=bug
// causa: at-line=14,26
// main destroys the table's read-write lock before joining the reader,
// which may take it afterwards (or hold it at the destroy).
#include <pthread.h>
#include <stdio.h>

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static int table[4];

static void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&table_lock);
    int sum = table[0] + table[1];
    pthread_rwlock_unlock(&table_lock);
    return (void *)(long)sum;
}

int main(void) {
    pthread_t r;
    pthread_create(&r, 0, reader, 0);
    pthread_rwlock_wrlock(&table_lock);
    table[0] = 1;
    pthread_rwlock_unlock(&table_lock);
    pthread_rwlock_destroy(&table_lock);   /* bug: the reader may still come */
    pthread_join(r, 0);
    puts("ok");
    return 0;
}
