// causa: expect=no-bug
// causa: check=verified
// causa: stdout=worker 0: add(12,30)=42 -> "add:42"
// causa: stdout=worker 1: mul(-7,6)=-42 -> "mul:-42"
// causa: stdout=worker 2: max(255,-3)=255 -> "max:255"
// causa: stdout=ops registered once: 3, log "add:42 mul:-42 max:255"
// A command interpreter: a constant configuration string is parsed with
// strtol and atoi into three commands. Each command is a struct copied by
// value into a malloc'ed block and handed to its own thread. The threads run
// pthread_once to build a function-pointer dispatch table, look their
// operation up by name, call it through the pointer, format the result with
// snprintf and hand the text back to main. main prints the results after
// joining each thread, in creation order.

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCMDS 3
#define NAMELEN 8

typedef long (*op_fn)(long, long);

struct op {
    char name[NAMELEN];
    op_fn fn;
};

struct command {
    int id;
    char op[NAMELEN];
    long a, b;
};

struct result {
    long value;
    char text[24];
};

static long op_add(long a, long b) { return a + b; }
static long op_mul(long a, long b) { return a * b; }
static long op_max(long a, long b) { return a > b ? a : b; }

static struct op table[4];
static int table_len;
static int init_calls;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
    static const struct {
        const char *name;
        op_fn fn;
    } defs[] = {{"add", op_add}, {"mul", op_mul}, {"max", op_max}};
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
        strncpy(table[i].name, defs[i].name, NAMELEN - 1);
        table[i].fn = defs[i].fn;
    }
    table_len = 3;
    init_calls++;
}

static op_fn lookup(const char *name) {
    for (int i = 0; i < table_len; i++)
        if (strcmp(table[i].name, name) == 0)
            return table[i].fn;
    return NULL;
}

static void *run_command(void *arg) {
    struct command cmd = *(struct command *)arg; /* copy by value, then free */
    free(arg);
    pthread_once(&table_once, build_table);
    op_fn fn = lookup(cmd.op);
    assert(fn != NULL);
    struct result *r = malloc(sizeof *r);
    assert(r != NULL);
    r->value = fn(cmd.a, cmd.b);
    int n = snprintf(r->text, sizeof r->text, "%s:%ld", cmd.op, r->value);
    assert(n > 0 && (size_t)n < sizeof r->text);
    return r;
}

/* "op a b;op a b;..." -> commands. Uses strtol (any base) for the first
 * operand and atoi for the second, as older code often does. */
static int parse(const char *spec, struct command *out, int max) {
    int count = 0;
    const char *p = spec;
    while (*p && count < max) {
        struct command c;
        memset(&c, 0, sizeof c);
        c.id = count;
        const char *sp = strchr(p, ' ');
        assert(sp != NULL);
        size_t len = (size_t)(sp - p);
        assert(len > 0 && len < NAMELEN);
        memcpy(c.op, p, len);
        p += len;
        char *end;
        c.a = strtol(p, &end, 0);
        assert(end != p);
        p = end;
        c.b = atoi(p);
        p = strchr(p, ';');
        out[count++] = c;
        if (!p)
            break;
        p++;
    }
    return count;
}

int main(void) {
    static const char spec[] = "add 12 30;mul -7 6;max 0xff -3";
    struct command cmds[NCMDS];
    int n = parse(spec, cmds, NCMDS);
    assert(n == NCMDS);
    assert(cmds[2].a == strtol("ff", NULL, 16));

    pthread_t t[NCMDS];
    for (int i = 0; i < n; i++) {
        struct command *heap_cmd = malloc(sizeof *heap_cmd);
        assert(heap_cmd != NULL);
        *heap_cmd = cmds[i]; /* struct assignment */
        pthread_create(&t[i], NULL, run_command, heap_cmd);
    }
    char log[64] = "";
    for (int i = 0; i < n; i++) {
        struct result *r;
        pthread_join(t[i], (void **)&r);
        printf("worker %d: %s(%ld,%ld)=%ld -> \"%s\"\n", cmds[i].id, cmds[i].op,
               cmds[i].a, cmds[i].b, r->value, r->text);
        if (i > 0)
            strcat(log, " ");
        strcat(log, r->text);
        free(r);
    }
    assert(init_calls == 1);
    printf("ops registered once: %d, log \"%s\"\n", table_len, log);
    return 0;
}
