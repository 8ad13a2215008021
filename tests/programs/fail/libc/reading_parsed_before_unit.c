// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=32
// A sensor thread writes its reading as text, the value first and its
// unit after ("21 C"); main parses the text with sscanf while the sensor
// runs. When main parses between the two writes it finds a value without
// a unit, and its check that a reading has both fails: the two writes
// are not atomic with respect to the parse.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char reading[16];

static void *sensor(void *arg) {
    (void)arg;
    strcpy(reading, "21");
    strcat(reading, " C");
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, sensor, 0);
    int value = 0;
    char unit = '?';
    int n = sscanf(reading, "%d %c", &value, &unit);
    if (n >= 1) {
        /* A reading is there: it must have its unit. */
        printf("reading %d %c\n", value, unit);
        assert(n == 2 && (unit == 'C' || unit == 'F'));
    }
    pthread_join(t, 0);
    return 0;
}
