// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=29
// A registrar announces a handler (`ready = 1`) before it stores the
// function pointer; the dispatcher, seeing the flag, calls through the
// slot while it is still NULL. (Explaining it needs the call through an
// invalid function pointer as the failing operation: its pointer must be
// one of the program's functions for the call to go on.)
#include <pthread.h>
#include <stdio.h>

typedef void (*handler_t)(int);
static handler_t handlers[4];
static int ready;

static void on_event(int x) { printf("event %d\n", x); }

static void *registrar(void *arg) {
    (void)arg;
    ready = 1;                 /* bug: announced before the handler is set */
    handlers[2] = on_event;
    return NULL;
}

static void *dispatcher(void *arg) {
    (void)arg;
    while (!ready)
        ;
    handlers[2](42);
    return NULL;
}

int main(void) {
    pthread_t r, d;
    pthread_create(&d, NULL, dispatcher, NULL);
    pthread_create(&r, NULL, registrar, NULL);
    pthread_join(r, NULL);
    pthread_join(d, NULL);
    return 0;
}
