// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=42
// Two producers add names to a shared ring under its lock (each name
// copied into the slot at the ring's tail, an index that wraps around);
// the number of names added is bumped after the lock is released, so
// two producers can read the same old count and one name is not counted.

#include <assert.h>
#include <pthread.h>
#include <string.h>

#define CAP 8

static char names[CAP][12];
static int tail, added;
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;

static void add_name(const char *name) {
    pthread_mutex_lock(&ring_lock);
    strcpy(names[tail], name);
    tail = (tail + 1) % CAP;
    pthread_mutex_unlock(&ring_lock);
    added++;
}

static void *producer(void *arg) {
    const char *const *list = arg;
    for (int i = 0; list[i]; i++)
        add_name(list[i]);
    return NULL;
}

int main(void) {
    static const char *first[] = {"ada", "grace", "edsger", NULL};
    static const char *second[] = {"barbara", "donald", NULL};
    pthread_t a, b;
    pthread_create(&a, NULL, producer, (void *)first);
    pthread_create(&b, NULL, producer, (void *)second);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(added == 5);
    return 0;
}
