// causa: expect=error:unsupported-external
// causa: message=getaddrinfo
// Name resolution is outside what causa models; the call to getaddrinfo()
// must end the run with an unsupported-external error that names it.

#include <netdb.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    struct addrinfo hints;
    struct addrinfo *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo("localhost", "80", &hints, &res);
    if (rc != 0) {
        printf("lookup failed: %d\n", rc);
        return 1;
    }
    freeaddrinfo(res);
    return 0;
}
