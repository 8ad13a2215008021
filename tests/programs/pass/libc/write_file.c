// causa: expect=no-bug
// causa: check=verified
// causa: stdout=read back: 1 2 3 appended
// Writes a file and reads it back in the same run: a file opened for
// writing is kept in memory (causa runs a program many times and never
// changes the disk), so it starts empty every run, `a` appends to what was
// written, and the path never appears on disk.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <assert.h>

#define PATH "/tmp/causa-write-file-test.txt"

int main(void) {
    FILE *f = fopen(PATH, "w");
    assert(f != NULL);
    fprintf(f, "%d %d", 1, 2);
    fputc(' ', f);
    fputs("3", f);
    fclose(f);
    f = fopen(PATH, "a");
    assert(f != NULL);
    fputs(" appended", f);
    fclose(f);
    int fd = open(PATH, O_WRONLY | O_APPEND);
    assert(fd >= 0);
    assert(write(fd, "\n", 1) == 1);
    close(fd);
    f = fopen(PATH, "r");
    assert(f != NULL);
    char line[64];
    assert(fgets(line, sizeof line, f) != NULL);
    fclose(f);
    assert(strcmp(line, "1 2 3 appended\n") == 0);
    printf("read back: %.*s\n", (int)strlen(line) - 1, line);
    assert(fopen("/nonexistent/dir/file", "r") == NULL);
    assert(open("/nonexistent/dir/file", O_WRONLY) < 0);
    assert(fopen("/nonexistent/dir/file", "w") == NULL);
    assert(open("/nonexistent/dir/file", O_WRONLY | O_CREAT, 0644) < 0);
    return 0;
}
