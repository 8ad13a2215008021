// causa: expect=no-bug
// causa: check=verified
// Each thread stores its own context under one pthread key and reads it back
// through nested calls. Values bound to a key are per thread, so a thread
// never sees another thread's context, and main's value stays NULL.

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct context {
    int id;
    int calls;
};

pthread_key_t ctx_key;

static void note_call(void) {
    struct context *ctx = pthread_getspecific(ctx_key);
    ctx->calls++;
}

void *worker(void *arg) {
    struct context *ctx = malloc(sizeof *ctx);
    if (ctx == NULL)
        return NULL;
    ctx->id = (int)(long)arg;
    ctx->calls = 0;
    pthread_setspecific(ctx_key, ctx);
    note_call();
    note_call();
    struct context *mine = pthread_getspecific(ctx_key);
    assert(mine == ctx);
    assert(mine->id == (int)(long)arg);
    assert(mine->calls == 2);
    pthread_setspecific(ctx_key, NULL);
    free(ctx);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_key_create(&ctx_key, NULL);
    pthread_create(&a, NULL, worker, (void *)1L);
    pthread_create(&b, NULL, worker, (void *)2L);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(pthread_getspecific(ctx_key) == NULL);
    return 0;
}
