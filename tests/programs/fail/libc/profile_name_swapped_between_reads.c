// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// A display thread caches which profile is active and then measures the
// active profile's name through the `active_name` pointer. The settings
// thread switches the profile by updating the index first and the pointer
// second, without a lock: the display can see the new index with the old
// name, and the lengths disagree.
#include <assert.h>
#include <pthread.h>
#include <string.h>

static char profiles[2][16] = {"workstation", "travel"};
static int active = 0;
static char *active_name = profiles[0];

static void *settings(void *arg) {
    (void)arg;
    active = 1;
    active_name = profiles[1];
    return NULL;
}

static void *display(void *arg) {
    (void)arg;
    int index = active;
    char *name = active_name;
    size_t shown = strlen(name);
    size_t expected = strlen(profiles[index]);
    /* the name shown must be the active profile's */
    assert(shown == expected);
    return NULL;
}

int main(void) {
    pthread_t s, d;
    pthread_create(&s, NULL, settings, NULL);
    pthread_create(&d, NULL, display, NULL);
    pthread_join(s, NULL);
    pthread_join(d, NULL);
    return 0;
}
