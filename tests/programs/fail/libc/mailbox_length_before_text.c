// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// A mailbox of variable-length messages: the sender writes the length and
// then the text; the receiver reads the length and copies that many bytes
// of the text (a size from shared memory). It may copy before the text
// arrives: writing the text before the length avoids it.
#include <assert.h>
#include <pthread.h>
#include <string.h>

struct mailbox {
    int len;
    char text[32];
} box;

void *sender(void *arg) {
    (void)arg;
    box.len = 5;
    memcpy(box.text, "hello", 5);
    return 0;
}

void *receiver(void *arg) {
    (void)arg;
    char got[32];
    int n = box.len;
    if (n > 0) {
        memcpy(got, box.text, n);
        got[n] = '\0';
        assert(strcmp(got, "hello") == 0);
    }
    return 0;
}

int main(void) {
    pthread_t s, r;
    pthread_create(&r, 0, receiver, 0);
    pthread_create(&s, 0, sender, 0);
    pthread_join(s, 0);
    pthread_join(r, 0);
    return 0;
}
