// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=38
// Lazy initialisation behind a flag tested and set without a lock: both
// users can find `ready` 0, so both run `init`, and the second run clears
// the slot the first user has already filled. The explanation says the
// initialisation ran twice because the test and the set of `ready` are
// two steps (pthread_once is the fix).
#include <pthread.h>
#include <assert.h>

static int ready;
static int table[4];

static void init(void) {
    for (int i = 0; i < 4; i++)
        table[i] = 0;
}

static void *user(void *arg) {
    int id = *(int *)arg;
    if (!ready) {                      /* bug: test and set are two steps */
        init();
        ready = 1;
    }
    table[id] = id + 1;
    return 0;
}

int main(void) {
    pthread_t t[2];
    int ids[2] = {1, 2};
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, user, &ids[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    /* each user's slot holds its mark */
    assert(table[1] == 2 && table[2] == 3);
    return 0;
}
