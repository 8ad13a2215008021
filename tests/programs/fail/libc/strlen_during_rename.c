// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=24
// A worker renames a shared label with strcpy while main measures it with
// strlen. Both are string functions on shared memory: each is a scheduling
// point of its own (before, strlen ran unseen right after pthread_create,
// and `causa check` wrongly verified this program).
#include <assert.h>
#include <pthread.h>
#include <string.h>

char label[16] = "init";

void *rename_label(void *arg) {
    (void)arg;
    strcpy(label, "renamed");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, rename_label, 0);
    size_t n = strlen(label);
    assert(n == 4);
    pthread_join(t, 0);
    return 0;
}
