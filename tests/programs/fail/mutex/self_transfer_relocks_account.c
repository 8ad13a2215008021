// causa: expect=bug:deadlock
// causa: check=bug
// causa: at-line=21
// Clerks take the destination of each transfer from a shared ticket
// counter and lock both accounts in address order. When a clerk's ticket
// names its own account, `first` and `second` are the same mutex, and the
// clerk locks it twice. Two clerks can do so at once: each waits for
// itself. (Explaining it said "the constraints are unsatisfiable": the
// clerk that is not the failing one was followed past its second lock, as
// if the mutex were recursive.)
#include <pthread.h>
#include <stdio.h>

struct account { pthread_mutex_t m; int balance; };
struct account acc[3];

void transfer(struct account *from, struct account *to, int amount) {
    struct account *first = from < to ? from : to;
    struct account *second = from < to ? to : from;
    pthread_mutex_lock(&first->m);
    pthread_mutex_lock(&second->m);
    from->balance -= amount;
    to->balance += amount;
    pthread_mutex_unlock(&second->m);
    pthread_mutex_unlock(&first->m);
}

int ticket = 0;
pthread_mutex_t ticket_m = PTHREAD_MUTEX_INITIALIZER;

void *clerk(void *arg) {
    int id = *(int *)arg;
    for (int k = 0; k < 2; k++) {
        pthread_mutex_lock(&ticket_m);
        int to = ticket++ % 3;
        pthread_mutex_unlock(&ticket_m);
        transfer(&acc[id], &acc[to], 5);
    }
    return 0;
}

int main(void) {
    pthread_t t[2];
    int ids[2] = {0, 1};
    for (int i = 0; i < 3; i++) {
        pthread_mutex_init(&acc[i].m, 0);
        acc[i].balance = 100;
    }
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, clerk, &ids[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    printf("%d %d %d\n", acc[0].balance, acc[1].balance, acc[2].balance);
    return 0;
}
