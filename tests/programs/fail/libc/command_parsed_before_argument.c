// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A controller replaces the command main is about to read ("run 1") in
// two steps, the verb and then its argument. main reads the word and the
// number with sscanf while the controller runs; between the two steps it
// finds the new verb without its argument.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char command[16] = "run 1";

static void *controller(void *arg) {
    (void)arg;
    strcpy(command, "halt");
    strcat(command, " 0");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, controller, 0);
    char verb[8] = "";
    int code = -1;
    int n = sscanf(command, "%7s %d", verb, &code);
    printf("%s %d\n", verb, code);
    if (verb[0] == 'h') {
        /* A halt carries its exit code. */
        printf("halting with %d\n", code);
        assert(n == 2);
    }
    pthread_join(t, 0);
    return 0;
}
