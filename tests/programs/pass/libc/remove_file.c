// causa: expect=no-bug
// causa: check=verified
// causa: stdout=removed: 0 -1 -1, reopened: kept, recreated: new
// Removes a file the run wrote: opening the path then fails, a second
// remove fails, a handle opened before the remove still reads, and the
// path can be created again. (The disk is never changed: a file written in
// a run is kept in memory, and a removed path is gone for that run only.)
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <assert.h>

#define PATH "/tmp/causa-remove-file-test.txt"

int main(void) {
    FILE *f = fopen(PATH, "w");
    assert(f != NULL);
    fputs("kept\n", f);
    fclose(f);
    FILE *held = fopen(PATH, "r");
    assert(held != NULL);
    int first = remove(PATH);
    int again = remove(PATH);
    int gone = unlink("/nonexistent/dir/file");
    assert(fopen(PATH, "r") == NULL);
    char line[16];
    assert(fgets(line, sizeof line, held) != NULL);
    fclose(held);
    line[strcspn(line, "\n")] = '\0';
    f = fopen(PATH, "w");
    assert(f != NULL);
    fputs("new", f);
    fclose(f);
    f = fopen(PATH, "r");
    assert(f != NULL);
    char now[16];
    assert(fgets(now, sizeof now, f) != NULL);
    fclose(f);
    assert(unlink(PATH) == 0);
    printf("removed: %d %d %d, reopened: %s, recreated: %s\n", first, again, gone, line, now);
    return 0;
}
