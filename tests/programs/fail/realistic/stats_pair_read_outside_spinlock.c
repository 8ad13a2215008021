// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=26
// Link statistics: the sender bumps `sent` and `acked` together under a
// spin lock; the reporter reads both without taking it, so it can read
// between the two updates and see a new `sent` with an old `acked`.
#include <pthread.h>
#include <assert.h>
struct stats { unsigned sent, acked; };
static struct stats st;
static pthread_spinlock_t sl;
static void *sender(void *arg) {
    (void)arg;
    for (int i = 0; i < 2; i++) {
        pthread_spin_lock(&sl);
        st.sent++;
        st.acked++;
        pthread_spin_unlock(&sl);
    }
    return 0;
}
static void *reporter(void *arg) {
    (void)arg;
    unsigned s = st.sent;
    unsigned a = st.acked;
    assert(s == a);
    return 0;
}
int main(void) {
    pthread_spin_init(&sl, 0);
    pthread_t a, b;
    pthread_create(&a, 0, sender, 0);
    pthread_create(&b, 0, reporter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
