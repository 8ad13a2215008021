// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=27
// Event handlers registered through function pointers; a dispatcher
// thread calls every registered handler while another thread registers
// one more. `add` bumps the count before it fills the slot (its name
// copied with strncpy into the slot the count picks, then the pointer),
// so the dispatcher can call through a null handler.
#include <pthread.h>
#include <stdio.h>
#include <string.h>
typedef void (*handler_fn)(int);
struct registry { int n; handler_fn fns[4]; char names[4][8]; };
static struct registry reg;
static int hits;
static void on_a(int x) { hits += x; }
static void on_b(int x) { hits += 2 * x; }
static void add(handler_fn f, const char *name) {
    int i = reg.n;
    reg.n = i + 1;
    strncpy(reg.names[i], name, sizeof reg.names[i] - 1);
    reg.fns[i] = f;
}
static void *registrar(void *arg) { (void)arg; add(on_b, "b"); return 0; }
static void *dispatcher(void *arg) {
    (void)arg;
    for (int i = 0; i < reg.n; i++) reg.fns[i](1);
    return 0;
}
int main(void) {
    add(on_a, "a");
    pthread_t r, d;
    pthread_create(&r, 0, registrar, 0);
    pthread_create(&d, 0, dispatcher, 0);
    pthread_join(r, 0);
    pthread_join(d, 0);
    printf("hits=%d handlers=%d (%s)\n", hits, reg.n, reg.names[reg.n - 1]);
    return 0;
}
