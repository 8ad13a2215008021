// causa: expect=bug:assertion-violation
// causa: check=bug
// causa: at-line=37
// A tank monitor keeps the last reading as text, the way it came from the
// sensor. The sensor thread stores a new reading while the alarm thread
// parses the text with atoi, and nothing orders the two: the alarm can
// parse the old reading and miss the high level. atoi of a string in
// shared memory is one visible read of its bytes, which symbolic execution
// (explain) follows byte by byte.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

static char reading[8] = "12";
static int alarms;

static void *sensor(void *arg) {
    (void)arg;
    strcpy(reading, "95");
    return NULL;
}

static void *alarm_check(void *arg) {
    (void)arg;
    if (atoi(reading) > 80)
        alarms++;
    return NULL;
}

int main(void) {
    pthread_t s, a;
    pthread_create(&s, NULL, sensor, NULL);
    pthread_create(&a, NULL, alarm_check, NULL);
    pthread_join(s, NULL);
    pthread_join(a, NULL);
    assert(alarms == 1);
    return 0;
}
