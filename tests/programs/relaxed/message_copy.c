// causa: expect=no-bug
// causa: check=verified
// causa: tso=verified
// causa: pso=bug:assertion-violation
// Message passing where the reader copies the message with memcpy. The
// writer fills in both fields and then sets the flag. Under PSO the store to
// `msg.seq` can still sit in its buffer when the flag becomes visible, so the
// copy (one access of both fields) sees a half-written message.

#include <assert.h>
#include <pthread.h>
#include <string.h>

struct message {
    int seq;
    int payload;
};

struct message msg;
int published;

void *writer(void *arg) {
    (void)arg;
    msg.seq = 7;
    msg.payload = 99;
    published = 1;
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    if (published) {
        struct message local;
        memcpy(&local, &msg, sizeof local);
        assert(local.seq == 7 && local.payload == 99);
    }
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
