// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=39
// main sets up a statistics record, starts two workers that update it under
// its lock, and reads it without the lock while they run: the count it read
// first no longer matches the sum it reads after.
#include <assert.h>
#include <pthread.h>

struct stats {
    pthread_mutex_t lock;
    long n, sum, max;
};

static struct stats st = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0};

static void add(long v) {
    pthread_mutex_lock(&st.lock);
    st.n++;
    st.sum += v;
    if (v > st.max)
        st.max = v;
    pthread_mutex_unlock(&st.lock);
}

static void *worker(void *arg) {
    add((long)arg);
    add((long)arg + 1);
    return 0;
}

int main(void) {
    st.n = st.sum = st.max = 0;
    pthread_t t[2];
    pthread_create(&t[0], 0, worker, (void *)10);
    pthread_create(&t[1], 0, worker, (void *)20);
    long n = st.n; /* bug: read without the lock */
    long sum = st.sum, max = st.max;
    assert(sum <= n * max);
    pthread_join(t[0], 0);
    pthread_join(t[1], 0);
    return 0;
}
