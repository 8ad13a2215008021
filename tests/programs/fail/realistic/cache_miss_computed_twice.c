// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// A cache: `get` looks the key up under the lock, computes the value
// outside it (slow), and inserts under the lock again. Two threads that
// miss the same key both compute it: the expensive computation runs twice.
#include <pthread.h>
#include <assert.h>
#define SLOTS 4
static int keys[SLOTS], vals[SLOTS], used;
static int computations;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int compute(int k) {
    __atomic_fetch_add(&computations, 1, __ATOMIC_SEQ_CST);
    return k * k;
}
static int get(int k) {
    pthread_mutex_lock(&m);
    for (int i = 0; i < used; i++)
        if (keys[i] == k) { int v = vals[i]; pthread_mutex_unlock(&m); return v; }
    pthread_mutex_unlock(&m);
    int v = compute(k);
    pthread_mutex_lock(&m);
    keys[used] = k;
    vals[used] = v;
    used++;
    pthread_mutex_unlock(&m);
    return v;
}
static void *client(void *arg) { (void)arg; get(7); return 0; }
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, client, 0);
    pthread_create(&b, 0, client, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(computations == 1);
    return 0;
}
