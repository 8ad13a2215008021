// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=66
// Sign-up: a name is checked ("is it taken?") under the users' lock, and
// added under the lock again, but the two are separate critical sections.
// Two threads signing up the same name can both find it free and both add
// it; a third thread signs up another name. The explanation is the second
// "alice" thread's check seeing the first one's node (a branch of the
// check-then-act), not a flip in the unrelated "bob" thread.

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct user {
    char name[16];
    struct user *next;
};

static struct user *users;
static pthread_mutex_t users_lock = PTHREAD_MUTEX_INITIALIZER;

static int taken(const char *name) {
    int found = 0;
    pthread_mutex_lock(&users_lock);
    for (struct user *u = users; u; u = u->next)
        if (strcmp(u->name, name) == 0)
            found = 1;
    pthread_mutex_unlock(&users_lock);
    return found;
}

static void add(const char *name) {
    struct user *u = malloc(sizeof *u);
    strcpy(u->name, name);
    pthread_mutex_lock(&users_lock);
    u->next = users;
    users = u;
    pthread_mutex_unlock(&users_lock);
}

static void *sign_up(void *arg) {
    const char *name = arg;
    if (!taken(name))
        add(name);
    return NULL;
}

static int count_named(const char *name) {
    int n = 0;
    for (struct user *u = users; u; u = u->next)
        if (strcmp(u->name, name) == 0)
            n++;
    return n;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, NULL, sign_up, "alice");
    pthread_create(&b, NULL, sign_up, "bob");
    pthread_create(&c, NULL, sign_up, "alice");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    assert(count_named("alice") == 1);
    return 0;
}
