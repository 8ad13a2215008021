// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=21
// publish() stores the address of its local `value` in a global, signals
// that it did, and returns: `value` dies with its frame. The reader can load
// the pointer before main clears it and use it after publish() returned, an
// access to a dead stack frame. It is fine when the reader uses the pointer
// before publish() returns, or loads it after main cleared it.

#include <pthread.h>
#include <stdio.h>

int *shared_ptr;
int published;
int seen = -1;

static void *reader(void *arg) {
    (void)arg;
    int *p = shared_ptr;
    if (p != NULL)
        seen = *p;
    return NULL;
}

static void publish(void) {
    int value = 42;
    shared_ptr = &value;
    published = 1;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    publish();
    shared_ptr = NULL;
    pthread_join(t, NULL);
    printf("seen=%d published=%d\n", seen, published);
    return 0;
}
