// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=38
// main starts a loader thread for the configuration and checks the port it
// parsed before it joins the loader: the check fails when it runs first,
// before main ever reaches its join, so the failing run has no join to
// point at. The fix is the join (further down in main) before the check.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct config {
    int port;
    int workers;
    int timeout;
    int retries;
};

static struct config cfg;

static void *load_config(void *arg) {
    const char *text = arg;
    int port = 0;
    for (size_t i = 0; i < strlen(text) && text[i] != ':'; i++)
        port = port * 10 + (text[i] - '0');
    cfg.port = port;
    cfg.workers = 4;
    return 0;
}

int main(void) {
    static char text[] = "8080:4";
    pthread_t loader;
    cfg.timeout = 30; /* defaults the loader leaves as they are */
    cfg.retries = 3;
    pthread_create(&loader, 0, load_config, text);
    int port = cfg.port; /* bug: read before the join below */
    assert(port == 8080);
    pthread_join(loader, 0);
    return 0;
}
