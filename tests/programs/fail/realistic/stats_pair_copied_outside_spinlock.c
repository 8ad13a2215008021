// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// Link statistics copied out for main to check: the sender bumps `sent`
// and `acked` together under a spin lock; the reporter copies both without
// taking it, so it can read between the two updates and copy a new `sent`
// with an old `acked`.
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
static unsigned seen_sent, seen_acked;
static void *reporter(void *arg) {
    (void)arg;
    seen_sent = st.sent;
    seen_acked = st.acked;
    return 0;
}
int main(void) {
    pthread_spin_init(&sl, 0);
    pthread_t a, b;
    pthread_create(&a, 0, sender, 0);
    pthread_create(&b, 0, reporter, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(seen_sent == seen_acked);
    return 0;
}
