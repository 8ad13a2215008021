// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=48
// Two producers each store a 24-byte message into a ring: each reads the
// next free slot under the lock, copies its message there outside the
// lock (a struct assignment wider than any register), and only then
// claims the slot under the lock again. Both can read the same slot: the
// second copy lands on the first and one message is lost.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct message {
    int id;
    int len;
    char text[16];
};

static struct message ring[4];
static int tail;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *producer(void *arg) {
    struct message out;
    out.id = *(int *)arg;
    out.len = 5;
    strcpy(out.text, out.id == 1 ? "first" : "second");
    pthread_mutex_lock(&m);
    int t = tail;
    pthread_mutex_unlock(&m);
    ring[t] = out;
    pthread_mutex_lock(&m);
    tail = t + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    int ids[2] = {1, 2};
    pthread_create(&a, 0, producer, &ids[0]);
    pthread_create(&b, 0, producer, &ids[1]);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int sum = 0;
    for (int i = 0; i < 2; i++)
        sum += ring[i].id;
    assert(sum == 3);
    return 0;
}
