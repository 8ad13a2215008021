// causa: expect=bug:memory-error
// causa: check=bug
// causa: at-line=20
// The capacity check and the indexed store read `count` separately. Another
// producer can fill the last slot in between, so the store goes to
// items[CAP], one past the end of the array.

#include <pthread.h>
#include <stdio.h>

#define CAP 4

int items[CAP];
int count = 0;

void *producer(void *arg) {
    int base = *(int *)arg;
    for (int i = 0; i < 3; i++) {
        if (count < CAP) {
            items[count] = base + i;
            count++;
        }
    }
    return NULL;
}

int main(void) {
    pthread_t t1, t2;
    int b1 = 10, b2 = 20;
    pthread_create(&t1, NULL, producer, &b1);
    pthread_create(&t2, NULL, producer, &b2);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("count=%d\n", count);
    return 0;
}
