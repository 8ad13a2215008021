// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=28
// Two threads each take a ticket by reading the next number and storing
// it plus one, not atomically, and return their ticket; main collects the
// tickets with pthread_join and checks they differ. Both threads can read
// the same number.
#include <pthread.h>
#include <assert.h>
#include <stdint.h>

static int next_ticket;

static void *take_ticket(void *arg) {
    (void)arg;
    int mine = next_ticket;
    next_ticket = mine + 1;
    return (void *)(intptr_t)mine;
}

int main(void) {
    pthread_t a, b;
    void *ticket_a, *ticket_b;
    pthread_create(&a, NULL, take_ticket, NULL);
    pthread_create(&b, NULL, take_ticket, NULL);
    pthread_join(a, &ticket_a);
    pthread_join(b, &ticket_b);
    assert(ticket_a != ticket_b);
    return 0;
}
