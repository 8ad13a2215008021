// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=33
// A worker fills a result and sets `done`, which main spins on, before
// writing the result's last field: main sees `done`, passes the check of
// `res.code` and finds `res.len` unwritten. The summary said main "went
// on because its read of `res.code` … saw the write" and to write
// `res.len` before `res.code`: the read main went on by is its read of
// `done`, the gate it passed before reading either field.
#include <assert.h>
#include <pthread.h>

struct result {
    int code;
    int len;
};
struct result res;
volatile int done = 0;

void *worker(void *arg) {
    (void)arg;
    res.code = 200;
    done = 1;
    res.len = 512;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!done)
        ;
    assert(res.code == 200 && res.len == 512);
    pthread_join(t, 0);
    return 0;
}
