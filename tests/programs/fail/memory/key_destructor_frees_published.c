// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=31
// A worker keeps its buffer as thread-specific data whose key frees it at
// the thread's end, but also publishes the pointer: after the join, main
// reads a block the key's destructor already freed. (causa said
// "verified": destructors did not run.)
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_key_t key;
static int *published;

static void release(void *p) { free(p); }

static void *worker(void *arg) {
    (void)arg;
    int *mine = malloc(sizeof *mine);
    *mine = 42;
    pthread_setspecific(key, mine);
    published = mine;
    return 0;
}

int main(void) {
    pthread_key_create(&key, release);
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    printf("%d\n", *published);
    return 0;
}
