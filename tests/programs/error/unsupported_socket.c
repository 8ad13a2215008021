// causa: expect=error:unsupported-external
// causa: message=socket
// The program opens a network socket. causa does not model sockets, so the
// call to socket() must be reported as a tool error naming the function,
// not silently skipped and not reported as a bug in the program.

#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

void *server(void *arg) {
    (void)arg;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        fprintf(stderr, "socket failed\n");
        return NULL;
    }
    close(fd);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, server, NULL);
    pthread_join(t, NULL);
    return 0;
}
