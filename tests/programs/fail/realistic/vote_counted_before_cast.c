// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=38
// Three participants each count themselves in `voted` under a lock and
// only then cast their vote; the coordinator waits under the same lock
// until `voted` reaches 3 and tallies the votes. The count reaches 3
// before the last votes are written. The explanation said only "joining
// it before the read avoids the failure": it did not name the wait on
// `voted`, because the update the coordinator saw last was another
// participant's, not the one whose vote was missing.
#include <assert.h>
#include <pthread.h>

int vote[3];
int voted = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *participant(void *arg) {
    long id = (long)arg;
    pthread_mutex_lock(&m);
    voted++;
    pthread_mutex_unlock(&m);
    vote[id] = 1;
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], 0, participant, (void *)i);
    int n;
    do {
        pthread_mutex_lock(&m);
        n = voted;
        pthread_mutex_unlock(&m);
    } while (n < 3);
    int yes = vote[0] + vote[1] + vote[2];
    assert(yes == 3);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
