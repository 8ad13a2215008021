// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=43
// A producer hands 24-byte messages to a consumer through a ring. It
// advances `tail` before it copies the message into the slot, so the
// consumer, which waits for `head != tail` and then copies the slot out
// whole, can copy a slot that is still empty.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct message {
    int id;
    int len;
    char text[16];
};

static struct message ring[4];
static int head, tail;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 2; i++) {
        struct message m;
        m.id = i;
        m.len = 4;
        strcpy(m.text, i == 1 ? "ping" : "pong");
        int t = tail;
        tail = t + 1;
        ring[t % 4] = m;
    }
    return 0;
}

static void *consumer(void *arg) {
    (void)arg;
    int got = 0;
    while (got < 2) {
        if (head == tail)
            continue;
        struct message m = ring[head % 4];
        head++;
        assert(m.id == got + 1);
        got++;
    }
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
