// causa: expect=no-bug
// causa: check=verified
// causa: stdout=greeting: hello, causa (12 chars)
// causa: stdout=copy: hello, causa
// causa: stdout=num: id-17 total=59
// Two threads build strings in their own buffers with the string and
// formatting functions; main checks the results after joining. All buffers
// are large enough, so no access is out of bounds.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char greeting[32];
char label[16];
char *copy = NULL;

void *build_greeting(void *arg) {
    (void)arg;
    strcpy(greeting, "hello");
    strcat(greeting, ", ");
    strncpy(greeting + strlen(greeting), "causa!!", 5);
    greeting[12] = '\0';
    copy = strdup(greeting);
    return NULL;
}

void *build_label(void *arg) {
    (void)arg;
    char tmp[8];
    memset(tmp, 0, sizeof tmp);
    memcpy(tmp, "id-", 3);
    snprintf(label, sizeof label, "%s%d", tmp, 17);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, build_greeting, NULL);
    pthread_create(&b, NULL, build_label, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);

    assert(strcmp(greeting, "hello, causa") == 0);
    assert(strncmp(label, "id-", 3) == 0);
    assert(strchr(greeting, ',') == greeting + 5);
    assert(memcmp(copy, greeting, strlen(greeting) + 1) == 0);

    int id = atoi(label + 3);
    long extra = strtol("42", NULL, 10);
    printf("greeting: %s (%d chars)\n", greeting, (int)strlen(greeting));
    puts("copy: hello, causa");
    printf("num: %s total=%ld\n", label, id + extra);
    free(copy);
    return 0;
}
