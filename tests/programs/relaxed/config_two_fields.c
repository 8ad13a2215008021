// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=bug:assertion-violation
// Message passing of a two-field message: the producer writes both fields,
// then the flag. Under PSO both field stores can still be buffered when
// the flag becomes visible. The explanation's fence goes after the second
// field (line 19): one after the first field would leave the second
// behind the flag (config_two_fields_fenced.c is that fix).

#include <assert.h>
#include <pthread.h>

struct config { int port, timeout; } cfg;
int ready;

void *producer(void *arg) {
    cfg.port = 8080;
    cfg.timeout = 30;
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
