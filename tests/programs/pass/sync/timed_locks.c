// causa: expect=no-bug
// causa: check=verified
// causa: stdout=free: 0
// causa: stdout=own normal mutex: Connection timed out
// causa: stdout=own errorcheck mutex: Resource deadlock avoided
// causa: stdout=contender done: 1
// causa: stdout=sem_timedwait on 0: -1 Connection timed out
// causa: stdout=sem_timedwait bad time: -1 Invalid argument
// causa: stdout=sem_timedwait with a poster: consistent
// causa: stdout=default detach state joinable: 1
// causa: stdout=bad detach state: Invalid argument
// causa: stdout=detached: 1
// causa: stdout=default stack: 1
// causa: stdout=stack size: 1048576
// causa: stdout=detached thread ran: 1
// Timed waits time out at once in causa when they cannot proceed (the timeout is
// a scheduling choice), so both outcomes are handled: pthread_mutex_timedlock on
// a free mutex, on one the caller holds (normal: ETIMEDOUT, error-checking:
// EDEADLK) and against main; sem_timedwait on 0 (ETIMEDOUT), with a bad time
// (EINVAL) and racing a poster. Thread attributes: the detach state and stack
// size round-trip, and a thread created detached is never joined. The expected
// lines are the output of the same program built with gcc against glibc.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t ready, done;
static int counter;

/* A deadline `ms` milliseconds from now. */
static struct timespec deadline(long ms) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += ms * 1000000;
    ts.tv_sec += ts.tv_nsec / 1000000000;
    ts.tv_nsec %= 1000000000;
    return ts;
}

/* Either gets the lock before its deadline or gives up: both are fine. */
static void *contender(void *arg) {
    (void)arg;
    struct timespec ts = deadline(1);
    int r = pthread_mutex_timedlock(&lock, &ts);
    if (r == 0) {
        counter++;
        pthread_mutex_unlock(&lock);
    } else {
        assert(r == ETIMEDOUT);
    }
    return NULL;
}

static void *poster(void *arg) {
    (void)arg;
    sem_post(&ready);
    return NULL;
}

/* Created detached through its attributes: nobody joins it. */
static void *detached(void *arg) {
    *(int *)arg = 1;
    sem_post(&done);
    return NULL;
}

int main(void) {
    struct timespec ts = deadline(1);
    printf("free: %d\n", pthread_mutex_timedlock(&lock, &ts));
    ts = deadline(1);
    printf("own normal mutex: %s\n", strerror(pthread_mutex_timedlock(&lock, &ts)));

    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_PRIVATE);
    pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_NONE);
    pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_STALLED);
    pthread_mutex_t checked;
    pthread_mutex_init(&checked, &ma);
    pthread_mutex_lock(&checked);
    ts = deadline(1);
    printf("own errorcheck mutex: %s\n", strerror(pthread_mutex_timedlock(&checked, &ts)));
    pthread_mutex_unlock(&checked);
    pthread_mutex_destroy(&checked);
    pthread_mutexattr_destroy(&ma);

    pthread_t t;
    pthread_create(&t, NULL, contender, NULL);
    counter++;
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    assert(counter == 1 || counter == 2);
    printf("contender done: %d\n", counter >= 1);

    sem_init(&ready, 0, 0);
    ts = deadline(1);
    errno = 0;
    int r = sem_timedwait(&ready, &ts);
    printf("sem_timedwait on 0: %d %s\n", r, strerror(errno));
    struct timespec bad = {0, -1};
    errno = 0;
    r = sem_timedwait(&ready, &bad);
    printf("sem_timedwait bad time: %d %s\n", r, strerror(errno));

    pthread_create(&t, NULL, poster, NULL);
    ts = deadline(1);
    r = sem_timedwait(&ready, &ts);
    pthread_join(t, NULL);
    int value;
    sem_getvalue(&ready, &value);
    assert(r == 0 ? value == 0 : (errno == ETIMEDOUT && value == 1));
    printf("sem_timedwait with a poster: consistent\n");

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int state;
    pthread_attr_getdetachstate(&attr, &state);
    printf("default detach state joinable: %d\n", state == PTHREAD_CREATE_JOINABLE);
    printf("bad detach state: %s\n", strerror(pthread_attr_setdetachstate(&attr, 5)));
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_getdetachstate(&attr, &state);
    printf("detached: %d\n", state == PTHREAD_CREATE_DETACHED);
    size_t size;
    pthread_attr_getstacksize(&attr, &size);
    printf("default stack: %d\n", size >= 16384);
    pthread_attr_setstacksize(&attr, 1 << 20);
    pthread_attr_getstacksize(&attr, &size);
    printf("stack size: %zu\n", size);

    static int flag;
    sem_init(&done, 0, 0);
    pthread_create(&t, &attr, detached, &flag);
    pthread_attr_destroy(&attr);
    sem_wait(&done);
    printf("detached thread ran: %d\n", flag);
    return 0;
}
