// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=verified
// config_two_fields.c with the fence its explanation names, after the
// second field's store: both fields are visible before the flag.

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

struct config { int port, timeout; } cfg;
int ready;

void *producer(void *arg) {
    cfg.port = 8080;
    cfg.timeout = 30;
    atomic_thread_fence(memory_order_seq_cst);
    ready = 1;
    return 0;
}

void *consumer(void *arg) {
    if (ready)
        assert(cfg.port == 8080);
    return 0;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&q, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(q, 0);
    return 0;
}
