// causa: expect=no-bug
// causa: check=verified
// causa: stdout=first field: root
// Reads a real file with fopen/fgets and with open/read: causa reads a
// file's contents once, when it is opened, so every execution sees the same bytes.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <assert.h>

int main(void) {
    FILE *f = fopen("/etc/passwd", "r");
    assert(f != NULL);
    char line[256];
    assert(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    char *colon = strchr(line, ':');
    assert(colon != NULL);
    *colon = 0;
    printf("first field: %s\n", line);

    int fd = open("/etc/passwd", O_RDONLY);
    assert(fd >= 0);
    char buf[4];
    assert(read(fd, buf, 4) == 4);
    close(fd);
    assert(memcmp(buf, "root", 4) == 0);
    assert(fopen("/nonexistent/file", "r") == NULL);
    return 0;
}
