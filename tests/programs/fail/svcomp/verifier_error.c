// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=24
// Old SV-COMP style with __VERIFIER_error(). The flag handshake is racy: the
// reader may see `flag` set before `data` is written, because the writer
// publishes the flag first.

extern void __VERIFIER_error(void);

#include <pthread.h>

int data = 0;
int flag = 0;

void *writer(void *arg) {
    flag = 1;
    data = 42;
    return 0;
}

void *reader(void *arg) {
    if (flag == 1) {
        if (data != 42) {
            __VERIFIER_error();
        }
    }
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
