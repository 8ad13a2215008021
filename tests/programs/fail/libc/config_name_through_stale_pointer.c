// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// The reloader names the high-performance configuration, installs it and
// then raises the level. The reporter reads the configuration, then the level, and
// measures the configuration's name through its `name` field: it can see
// the new configuration's name with the old level.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct config { const char *name; int level; };
static char default_name[16] = "default";
static char fast_name[16] = "";
static struct config configs[2] = {{default_name, 1}, {fast_name, 2}};
static struct config *current = &configs[0];
static int level = 1;

static void *reloader(void *arg) {
    (void)arg;
    strcpy(fast_name, "hi");
    current = &configs[1];
    level = 2;
    return NULL;
}

static void *reporter(void *arg) {
    (void)arg;
    struct config *c = current;
    int l = level;
    size_t n = strlen(c->name);
    assert(!(n == 2 && l == 1)); /* the fast configuration needs level 2 */
    return NULL;
}

int main(void) {
    pthread_t r, p;
    pthread_create(&r, NULL, reloader, NULL);
    pthread_create(&p, NULL, reporter, NULL);
    pthread_join(r, NULL);
    pthread_join(p, NULL);
    return 0;
}
