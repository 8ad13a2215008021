// causa: expect=no-bug
// causa: check=verified
// causa: stdout=0: Success
// causa: stdout=1: Operation not permitted
// causa: stdout=2: No such file or directory
// causa: stdout=4: Interrupted system call
// causa: stdout=11: Resource temporarily unavailable
// causa: stdout=12: Cannot allocate memory
// causa: stdout=16: Device or resource busy
// causa: stdout=22: Invalid argument
// causa: stdout=34: Numerical result out of range
// causa: stdout=35: Resource deadlock avoided
// causa: stdout=110: Connection timed out
// causa: stdout=unknown: Unknown error 9999
// causa: stdout=unknown: Unknown error -3
// causa: stdout=stable: 1
// causa: stdout=sem_trywait: -1 Resource temporarily unavailable
// causa: stdout=sysconf: 1 errno=0
// causa: stdout=worker errno: Numerical result out of range, main errno: 0
// errno and its messages: strerror gives glibc's text for each code ("Unknown
// error N" otherwise) and the same pointer for the same known code; perror
// prints to stderr; sem_trywait on 0 sets EAGAIN; each thread has its own errno,
// so the worker's ERANGE from strtol leaves main's errno at 0. The expected
// lines are the output of the same program built with gcc against glibc.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *worker(void *arg) {
    (void)arg;
    errno = 0;
    strtol("999999999999999999999", NULL, 10);
    return (void *)(long)errno; /* ERANGE, in the worker's own errno */
}

int main(void) {
    int codes[] = {0, EPERM, ENOENT, EINTR, EAGAIN, ENOMEM, EBUSY, EINVAL, ERANGE, EDEADLK, ETIMEDOUT};
    for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++)
        printf("%d: %s\n", codes[i], strerror(codes[i]));
    /* Unknown codes share one per-thread buffer, overwritten by the next call. */
    printf("unknown: %s\n", strerror(9999));
    printf("unknown: %s\n", strerror(-3));
    printf("stable: %d\n", strerror(EINVAL) == strerror(EINVAL));

    /* On stderr, which the test does not check (perror may change errno). */
    errno = EBUSY;
    perror("perror with a prefix");
    errno = ENOENT;
    perror("");
    errno = 0;
    perror(NULL);

    sem_t s;
    sem_init(&s, 0, 0);
    errno = 0;
    int r = sem_trywait(&s);
    printf("sem_trywait: %d %s\n", r, strerror(errno));

    errno = 0;
    long v = sysconf(_SC_NPROCESSORS_ONLN);
    printf("sysconf: %d errno=%d\n", v >= 1, errno);

    errno = 0;
    pthread_t t;
    void *rv;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, &rv);
    printf("worker errno: %s, main errno: %d\n", strerror((int)(long)rv), errno);
    return 0;
}
