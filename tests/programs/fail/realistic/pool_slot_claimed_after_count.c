// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=53
// A connection pool: each client checks a connection out and in twice.
// `checkout` takes one from the count under the lock, then, outside it,
// scans for a slot not in use and claims it with a test and a set. Two
// clients can both find a slot free before either marks it, and both use
// it: the second's owner overwrites the first's. The summary
// names each client once, by `checkout`, where it tests and sets the slot
// (it named one client twice, by `checkout` and by `client`, since the
// write it raced with is in the caller).

#include <assert.h>
#include <pthread.h>

#define CONNS 3
static int in_use[CONNS];
static int owner[CONNS];
static int available = CONNS;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static int checkout(int me) {
    pthread_mutex_lock(&pool_lock);
    if (available == 0) {
        pthread_mutex_unlock(&pool_lock);
        return -1;
    }
    available--;
    pthread_mutex_unlock(&pool_lock);
    for (int i = 0; i < CONNS; i++) {
        if (!in_use[i]) {
            in_use[i] = 1;
            owner[i] = me;
            return i;
        }
    }
    return -1;
}

static void checkin(int c) {
    pthread_mutex_lock(&pool_lock);
    in_use[c] = 0;
    available++;
    pthread_mutex_unlock(&pool_lock);
}

static void *client(void *arg) {
    int me = (int)(long)arg;
    for (int round = 0; round < 2; round++) {
        int c = checkout(me);
        if (c >= 0) {
            owner[c] = me;
            assert(owner[c] == me);
            checkin(c);
        }
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], 0, client, (void *)(i + 1));
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
