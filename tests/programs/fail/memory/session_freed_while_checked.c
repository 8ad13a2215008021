// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=20,21,22,23
// A shared session object with a reference count: `user` takes a reference
// if the session is still alive (count > 0), `owner` drops one and frees the
// session when the count reaches zero. The check and the increment in `user`
// are not atomic with `owner`'s decrement and free: `user` may read the
// count of a session already freed.
#include <pthread.h>
#include <stdlib.h>

struct session {
    int refs;
    int data;
};
struct session *s;

void *user(void *arg) {
    (void)arg;
    if (s->refs > 0) {          /* still alive? */
        s->refs++;              /* take a reference */
        s->data++;
        s->refs--;
    }
    return 0;
}

void *owner(void *arg) {
    (void)arg;
    if (--s->refs == 0) {
        free(s);
    }
    return 0;
}

int main(void) {
    s = malloc(sizeof *s);
    s->refs = 1;
    s->data = 0;
    pthread_t a, b;
    pthread_create(&a, 0, user, 0);
    pthread_create(&b, 0, owner, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
