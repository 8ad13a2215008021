// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=55
// A leaderboard: each player reserves a row by reading `count` under the
// lock, fills it outside, and stores `count + 1` under the lock again, so
// two players can take the same row and one entry is lost. main sorts the
// rows with qsort (causa's own C version, `<causa>/libc.c`) and checks the
// count. With one row, qsort returns at its first test; the alternate,
// with two, goes on: that flipped branch is told as "in causa's `qsort`",
// not at a line of a file the user does not have.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct entry { char *name; int score; };
static struct entry table[4];
static int count;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static int by_score(const void *a, const void *b) {
    const struct entry *x = a, *y = b;
    return x->score - y->score;
}

static void add(const char *name, int score) {
    pthread_mutex_lock(&m);
    int i = count;
    pthread_mutex_unlock(&m);
    table[i].name = strdup(name);
    table[i].score = score;
    pthread_mutex_lock(&m);
    count = i + 1;
    pthread_mutex_unlock(&m);
}

static void *player(void *arg) {
    char buf[16];
    snprintf(buf, sizeof buf, "p%ld", (long)arg);
    usleep(10);
    add(buf, (int)(long)arg * 10);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], 0, player, (void *)(i + 1));
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    qsort(table, count, sizeof table[0], by_score);
    printf("%d entries, best %s\n", count, table[count - 1].name);
    assert(count == 2);
    for (int i = 0; i < count; i++)
        free(table[i].name);
    return 0;
}
