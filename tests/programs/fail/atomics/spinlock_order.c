// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=12,38,39
// Two test-and-set spin locks taken in opposite orders by two threads:
// each can hold one and spin on the other forever.
#include <pthread.h>
#include <stdatomic.h>

static atomic_flag first = ATOMIC_FLAG_INIT, second = ATOMIC_FLAG_INIT;
static int x, y;

static void spin_lock(atomic_flag *f) { while (atomic_flag_test_and_set(f)) ; }
static void spin_unlock(atomic_flag *f) { atomic_flag_clear(f); }

static void *forward(void *arg) {
    (void)arg;
    spin_lock(&first);
    spin_lock(&second);
    x++;
    spin_unlock(&second);
    spin_unlock(&first);
    return 0;
}

static void *backward(void *arg) {
    (void)arg;
    spin_lock(&second);
    spin_lock(&first);
    y++;
    spin_unlock(&first);
    spin_unlock(&second);
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, forward, 0);
    pthread_create(&q, 0, backward, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
