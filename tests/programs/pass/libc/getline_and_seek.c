// causa: expect=no-bug
// causa: check=verified
// causa: stdout=lines=3 total=19 end=19 c=f bad=-1 d=2 last=x cap_ok=1 | read=-1 errno=9 close=-1 | write=-1 Bad file descriptor
// getline and getdelim (the buffer allocated by the first call, reused),
// ftell, fseek (a position before the start fails with EINVAL) and rewind
// on a file the run wrote; read, close and write of a descriptor that is
// not open return -1 with EBADF (a number, not a crash), which strerror
// names as glibc does.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    FILE *f = fopen("/tmp/causa-getline-test.txt", "w");
    if (!f)
        return 1;
    fputs("first line\nsecond\nx", f);
    fclose(f);
    f = fopen("/tmp/causa-getline-test.txt", "r");
    if (!f)
        return 1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int lines = 0;
    size_t total = 0;
    while ((n = getline(&line, &cap, f)) != -1) {
        lines++;
        total += (size_t)n;
    }
    long end = ftell(f);
    rewind(f);
    int c = fgetc(f);
    int bad = fseek(f, -100, SEEK_SET);
    fseek(f, -2, SEEK_END);
    ssize_t d = getdelim(&line, &cap, 'e', f);
    printf("lines=%d total=%zu end=%ld c=%c bad=%d d=%zd last=%c cap_ok=%d | ", lines, total, end, c, bad, d, line[1],
           cap >= 3);
    free(line);
    fclose(f);
    char b[4];
    errno = 0;
    ssize_t r = read(77, b, sizeof b);
    int e = errno;
    printf("read=%zd errno=%d close=%d | ", r, e, close(77));
    errno = 0;
    ssize_t w = write(77, b, 1);
    printf("write=%zd %s\n", w, strerror(errno));
    return 0;
}
