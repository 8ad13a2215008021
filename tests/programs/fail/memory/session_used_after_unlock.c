// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=32
// A session object published in `sess`: logout unpublishes it under the
// lock and frees it; a request takes the pointer under the lock but bumps
// the session's counter after releasing it. The free can come between
// the counter's read and its write (`s->active++`), or before both.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct session { char user[8]; int active; };
static struct session *sess;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *logout(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    struct session *s = sess;
    sess = NULL;
    pthread_mutex_unlock(&m);
    free(s);
    return 0;
}

static void *touch(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    struct session *s = sess;
    pthread_mutex_unlock(&m);
    if (s)
        s->active++;
    return 0;
}

int main(void) {
    sess = calloc(1, sizeof *sess);
    strcpy(sess->user, "ann");
    pthread_t a, b;
    pthread_create(&a, 0, touch, 0);
    pthread_create(&b, 0, logout, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
