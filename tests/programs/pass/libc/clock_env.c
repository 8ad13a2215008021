// causa: expect=no-bug
// causa: check=verified
// causa: stdout=rand_r(1): 476707713 1186278907 505671508 seed=3210001534
// causa: stdout=rand_r(42): 681191333 seed=3148160401
// causa: stdout=unset variable: 1
// causa: stdout=processors: 1
// causa: stdout=page size: 4096
// causa: stdout=bad name: -1 1
// causa: stdout=bad clock: -1 1
// causa: stdout=clocks are monotonic
// rand_r follows glibc's algorithm; getenv finds nothing (causa's environment is
// empty); sysconf reports processors and the page size and rejects unknown names
// with EINVAL; clock_gettime rejects unknown clocks. causa's clocks are virtual
// (they advance with the visible steps), so the program only checks that
// clock_gettime, gettimeofday and clock never go backwards, also across threads.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long long last_ns;

static long long now_ns(void) {
    struct timespec ts;
    int r = clock_gettime(CLOCK_MONOTONIC, &ts);
    assert(r == 0);
    assert(ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Time never goes backwards, also when threads interleave. */
static void *ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&lock);
        long long t = now_ns();
        assert(t >= last_ns);
        last_ns = t;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    unsigned seed = 1;
    int a = rand_r(&seed), b = rand_r(&seed), c = rand_r(&seed);
    printf("rand_r(1): %d %d %d seed=%u\n", a, b, c, seed);
    seed = 42;
    a = rand_r(&seed);
    printf("rand_r(42): %d seed=%u\n", a, seed);

    printf("unset variable: %d\n", getenv("CAUSA_SURELY_UNSET_VARIABLE") == NULL);
    printf("processors: %d\n", sysconf(_SC_NPROCESSORS_ONLN) >= 1 && sysconf(_SC_NPROCESSORS_CONF) >= 1);
    printf("page size: %ld\n", sysconf(_SC_PAGESIZE));
    errno = 0;
    long r = sysconf(-1);
    printf("bad name: %ld %d\n", r, errno == EINVAL);
    struct timespec ts;
    errno = 0;
    r = clock_gettime(-42, &ts);
    printf("bad clock: %ld %d\n", r, errno == EINVAL);

    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, ticker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);

    struct timeval tv1, tv2;
    gettimeofday(&tv1, NULL);
    clock_t c1 = clock();
    pthread_mutex_lock(&lock);
    pthread_mutex_unlock(&lock);
    gettimeofday(&tv2, NULL);
    clock_t c2 = clock();
    assert(tv1.tv_usec >= 0 && tv1.tv_usec < 1000000);
    assert(tv2.tv_sec > tv1.tv_sec || (tv2.tv_sec == tv1.tv_sec && tv2.tv_usec >= tv1.tv_usec));
    assert(c2 >= c1);
    assert(now_ns() >= last_ns);
    printf("clocks are monotonic\n");
    return 0;
}
