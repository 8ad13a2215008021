// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=31
// A memo table shared by two threads computing Fibonacci numbers
// recursively: an entry is marked valid before its value is stored, so the
// other thread can use a valid entry whose value is still 0.
#include <pthread.h>
#include <assert.h>
struct entry { int valid; long value; };
static struct entry memo[12];
static long fib(int n) {
    if (n < 2) return n;
    if (memo[n].valid) return memo[n].value;
    long v = fib(n - 1) + fib(n - 2);
    memo[n].valid = 1;
    memo[n].value = v;
    return v;
}
static long results[2];
static void *worker(void *arg) {
    int id = (int)(long)arg;
    results[id] = fib(6 + id);
    return 0;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)0L);
    pthread_create(&b, 0, worker, (void *)1L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(results[0] == 8 && results[1] == 13);
    return 0;
}
