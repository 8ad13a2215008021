// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=23
// Tellers take transfer orders from a shared queue and lock the source
// account, then the destination (each lock at an address computed from
// the order read from shared memory): two orders in opposite directions
// deadlock. (Explaining it said "pthread_mutex_lock through an address
// computed from shared data" was unsupported.)
#include <pthread.h>
#include <stdio.h>

struct account { pthread_mutex_t m; long balance; };
struct account acc[2];
struct order { int from, to; } orders[2] = {{0, 1}, {1, 0}};
int taken;
pthread_mutex_t q = PTHREAD_MUTEX_INITIALIZER;

void *teller(void *arg) {
    pthread_mutex_lock(&q);
    struct order o = orders[taken++];
    pthread_mutex_unlock(&q);
    pthread_mutex_lock(&acc[o.from].m);
    pthread_mutex_lock(&acc[o.to].m);     /* BUG: no global lock order */
    acc[o.from].balance -= 10;
    acc[o.to].balance += 10;
    pthread_mutex_unlock(&acc[o.to].m);
    pthread_mutex_unlock(&acc[o.from].m);
    return 0;
}

int main(void) {
    for (int i = 0; i < 2; i++) { pthread_mutex_init(&acc[i].m, 0); acc[i].balance = 100; }
    pthread_t t1, t2;
    pthread_create(&t1, 0, teller, 0);
    pthread_create(&t2, 0, teller, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    printf("%ld %ld\n", acc[0].balance, acc[1].balance);
    return 0;
}
