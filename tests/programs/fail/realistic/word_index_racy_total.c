// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=58
// Two threads index the words of their sentences in one linked list,
// skipping words already there (a walk with strcmp under the list's lock).
// The number of distinct words is bumped after the lock is released, with
// `distinct++`: two indexers can read the same old count, and one word is
// not counted.

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct word {
    char *text;
    struct word *next;
};

static struct word *words;
static pthread_mutex_t words_lock = PTHREAD_MUTEX_INITIALIZER;
static int distinct;

static void index_word(const char *text) {
    pthread_mutex_lock(&words_lock);
    for (struct word *w = words; w; w = w->next)
        if (strcmp(w->text, text) == 0) {
            pthread_mutex_unlock(&words_lock);
            return;
        }
    struct word *w = malloc(sizeof *w);
    w->text = strdup(text);
    w->next = words;
    words = w;
    pthread_mutex_unlock(&words_lock);
    distinct++; /* bug: outside the lock */
}

static void *indexer(void *arg) {
    const char **sentence = arg;
    for (int i = 0; sentence[i]; i++)
        index_word(sentence[i]);
    return 0;
}

static const char *first[] = {"the", "cat", 0};
static const char *second[] = {"a", "cat", 0};

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, indexer, first);
    pthread_create(&b, 0, indexer, second);
    pthread_join(a, 0);
    pthread_join(b, 0);
    int listed = 0;
    for (struct word *w = words; w; w = w->next)
        listed++;
    assert(distinct == listed);
    return 0;
}
