// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// Two shared names that should always differ: a worker swaps them through a
// third buffer, one strcpy at a time, without a lock. main compares them
// (strcmp of two shared strings, one scheduling point) while the swap is
// half done and finds them equal.
#include <assert.h>
#include <pthread.h>
#include <string.h>

char primary[8] = "alpha";
char backup[8] = "beta";
char spare[8];

void *swap_names(void *arg) {
    (void)arg;
    strcpy(spare, primary);
    strcpy(primary, backup);
    strcpy(backup, spare);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, swap_names, 0);
    int same = strcmp(primary, backup) == 0;
    pthread_join(t, 0);
    /* the names are distinct before and after the swap */
    (void)0;
    assert(!same);
    return 0;
}
