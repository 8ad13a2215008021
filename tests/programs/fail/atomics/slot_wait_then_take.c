// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=22
// Connection slots: each client busy-waits until fewer than MAX are in
// use, then takes one with an atomic add. The wait and the take are two
// steps, so two clients that both saw one slot free both take it. In the
// alternate a client may take a slot another client's release (which the
// failing run never reached) freed: its update is told as reading the
// value that release stored.
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#define MAX 2
static atomic_int in_use;
static atomic_int peak;
static void *client(void *arg) {
    (void)arg;
    while (atomic_load(&in_use) >= MAX)
        ;
    int now = atomic_fetch_add(&in_use, 1) + 1;
    if (now > atomic_load(&peak)) atomic_store(&peak, now);
    assert(now <= MAX);
    atomic_fetch_sub(&in_use, 1);
    return 0;
}
int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, client, 0);
    for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
    return 0;
}
