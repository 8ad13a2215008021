// causa: expect=no-bug
// causa: check=verified
// causa: stdout=int: 42 -7 0
// causa: stdout=width: [   42] [42   ] [00042]
// causa: stdout=left: ab   |
// causa: stdout=hex: ff FF 0x1f
// causa: stdout=float: 3.14 -0.50
// causa: stdout=char: z
// causa: stdout=str: hello, world
// causa: stdout=ulong: 4000000000
// causa: stdout=llong: -9000000000
// causa: stdout=percent: 100%
// causa: stdout=worker: 7 squared is 49
// Exercises printf conversions the interpreter has to format itself. The
// worker's line comes from another thread after a join, so under the `first`
// strategy the output order is fixed.

#include <pthread.h>
#include <stdio.h>

void *worker(void *arg) {
    int n = *(int *)arg;
    printf("worker: %d squared is %d\n", n, n * n);
    return NULL;
}

int main(void) {
    printf("int: %d %i %u\n", 42, -7, 0u);
    printf("width: [%5d] [%-5d] [%05d]\n", 42, 42, 42);
    printf("left: %-5s|\n", "ab");
    printf("hex: %x %X %#x\n", 255, 255, 31);
    printf("float: %.2f %.2f\n", 3.14159, -0.5);
    printf("char: %c\n", 'z');
    printf("str: %s, %s\n", "hello", "world");
    printf("ulong: %lu\n", 4000000000UL);
    printf("llong: %lld\n", -9000000000LL);
    printf("percent: 100%%\n");

    pthread_t t;
    int n = 7;
    pthread_create(&t, NULL, worker, &n);
    pthread_join(t, NULL);
    return 0;
}
