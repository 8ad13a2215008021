// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=48
// A ring of short messages. `put` claims a slot and publishes it (the
// count) under the lock, then copies the message into the slot after
// releasing it; `get` takes the oldest published slot under the lock and
// copies the message out. A consumer can take a slot before its message
// is there, and reads an empty string.

#include <assert.h>
#include <pthread.h>
#include <string.h>

#define CAP 4

static char items[CAP][16];
static int head, tail, count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void put(const char *msg) {
    pthread_mutex_lock(&lock);
    int slot = tail;
    tail = (tail + 1) % CAP;
    count++;
    pthread_mutex_unlock(&lock);
    strcpy(items[slot], msg);
}

static int get(char *out) {
    pthread_mutex_lock(&lock);
    if (count == 0) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    int slot = head;
    head = (head + 1) % CAP;
    count--;
    pthread_mutex_unlock(&lock);
    strcpy(out, items[slot]);
    return 1;
}

static void *consumer(void *arg) {
    (void)arg;
    char msg[16];
    for (int got = 0; got < 3;)
        if (get(msg)) {
            assert(strlen(msg) > 0);
            got++;
        }
    return NULL;
}

static void *producer(void *arg) {
    (void)arg;
    put("start");
    put("step");
    put("stop");
    return NULL;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    return 0;
}
