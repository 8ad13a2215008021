// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A thread-local array is private to each thread only while its address
// stays home: main hands its own instance to a helper, which updates it
// without a lock while main does too. The helper's own instance (hits[1]
// below) is untouched by main; main's hits[0] can lose an update.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static __thread int hits[2] = {5, 7};
static __thread int *mine;

static void *helper(void *arg) {
    int *owner = arg;           /* main's instance, not the helper's */
    hits[1] += 100;             /* the helper's own instance */
    owner[0] = owner[0] + 1;
    assert(hits[1] == 107);
    return NULL;
}

int main(void) {
    mine = &hits[0];
    pthread_t t;
    pthread_create(&t, NULL, helper, hits);
    *mine = *mine + 1;
    pthread_join(t, NULL);
    printf("%d %d\n", hits[0], hits[1]);
    assert(hits[1] == 7);
    assert(hits[0] == 7);
    return 0;
}
