// causa: expect=bug:deadlock
// causa: check=bug
// Three philosophers sit at a round table with one fork between each pair.
// Every philosopher picks up the left fork, then the right fork, eats, and
// puts both down, twice. When all three hold their left fork at the same
// time, each waits for the right fork its neighbour holds: a wait-for cycle
// 0 -> 1 -> 2 -> 0 and the program deadlocks.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define N 3
#define MEALS 2

static pthread_mutex_t forks[N];
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static int meals_eaten[N];
static int total_meals;
static int fork_owner[N];

struct philosopher {
    int id;
    int left;
    int right;
};

static struct philosopher phils[N];

static void take_fork(int id, int f) {
    pthread_mutex_lock(&forks[f]);
    assert(fork_owner[f] == -1);
    fork_owner[f] = id;
}

static void put_fork(int id, int f) {
    assert(fork_owner[f] == id);
    fork_owner[f] = -1;
    pthread_mutex_unlock(&forks[f]);
}

static void think(int id) {
    /* Thinking is local work; nothing shared happens here. */
    volatile int x = 0;
    for (int i = 0; i < 3; i++)
        x += id;
}

static void eat(struct philosopher *p) {
    assert(fork_owner[p->left] == p->id);
    assert(fork_owner[p->right] == p->id);
    pthread_mutex_lock(&stats_lock);
    meals_eaten[p->id]++;
    total_meals++;
    pthread_mutex_unlock(&stats_lock);
}

static void *dine(void *arg) {
    struct philosopher *p = arg;
    for (int m = 0; m < MEALS; m++) {
        think(p->id);
        take_fork(p->id, p->left);   /* BUG: everyone takes the left fork first */
        take_fork(p->id, p->right);
        eat(p);
        put_fork(p->id, p->right);
        put_fork(p->id, p->left);
    }
    return NULL;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++) {
        pthread_mutex_init(&forks[i], NULL);
        fork_owner[i] = -1;
    }
    for (int i = 0; i < N; i++) {
        phils[i].id = i;
        phils[i].left = i;
        phils[i].right = (i + 1) % N;
        pthread_create(&t[i], NULL, dine, &phils[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    assert(total_meals == N * MEALS);
    for (int i = 0; i < N; i++)
        assert(meals_eaten[i] == MEALS);
    printf("all philosophers ate %d meals\n", MEALS);
    for (int i = 0; i < N; i++)
        pthread_mutex_destroy(&forks[i]);
    return 0;
}
