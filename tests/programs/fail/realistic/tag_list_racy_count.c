// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=51
// Two threads add tags to one linked list under its lock, skipping a tag
// whose first two letters match one already there (read through each
// node's text pointer). The number of tags is bumped after the lock is
// released: two adders can read the same old count, and one tag is not
// counted.

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct tag {
    char *text;
    struct tag *next;
};

static struct tag *tags;
static pthread_mutex_t tags_lock = PTHREAD_MUTEX_INITIALIZER;
static int tag_count;

static void add_tag(const char *text) {
    pthread_mutex_lock(&tags_lock);
    for (struct tag *t = tags; t; t = t->next)
        if (t->text[0] == text[0] && t->text[1] == text[1]) {
            pthread_mutex_unlock(&tags_lock);
            return;
        }
    struct tag *t = malloc(sizeof *t);
    t->text = strdup(text);
    t->next = tags;
    tags = t;
    pthread_mutex_unlock(&tags_lock);
    tag_count++; /* bug: outside the lock */
}

static void *tagger(void *arg) {
    add_tag((const char *)arg);
    add_tag("urgent");
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, tagger, "backend");
    pthread_create(&b, 0, tagger, "frontend");
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(tag_count == 3);
    return 0;
}
