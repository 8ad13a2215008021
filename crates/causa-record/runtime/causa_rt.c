/* causa's native path recorder: the runtime linked into programs built with
 * `causa build`. Each thread records its own control-flow decisions in its
 * own buffer (no locks, no atomics on the recording path); the buffers are
 * written as a causa path log (format `causa-paths`, the version given by
 * `causa build` as CAUSA_PATHS_VERSION, the format of
 * crates/causa-core/src/paths.rs) when the program exits or fails.
 *
 * Calls inserted by the instrumentation (crates/causa-record/src/instrument.rs):
 *   __causa_branch(cond)      before every conditional branch a shared read
 *                             can influence (causa_ir::local)
 *   __causa_switch(index)     before every switch (0 = default, i = i-th case)
 *   __causa_icall(target)     before every indirect call
 *   __causa_site(file, l, c)  before calls that can report a failure
 *   __causa_size(v)           before each call of memcpy, malloc, … once per
 *                             size argument (causa_core::paths::SIZED_CALLS)
 * and the functions the program's own are redirected to:
 *   __causa_pthread_create    thread names follow the creation tree (0, 0.1, …)
 *   __causa_assert_fail, __causa_reach_error, __causa_abort: the failure
 *   __causa_nondet_*          program inputs, logged per thread
 *   __causa_pthread_once      what each call found (it runs the routine,
 *                             waits for another thread's, or finds it done)
 *   __causa_clock_gettime, __causa_gettimeofday, __causa_clock,
 *   __causa_rand, __causa_random: the values
 *   __causa_fgets, __causa_fgetc, __causa_getc, __causa_fread,
 *   __causa_fscanf, __causa_getline, __causa_getdelim: what each read
 *                             from its FILE; __causa_ftell,
 *                             __causa_fseek: the position, the result
 *   __causa_open, __causa_read, __causa_close: the descriptor, the
 *                             bytes read, the result
 *   __causa_pthread_mutex_trylock, __causa_pthread_spin_trylock,
 *   __causa_pthread_mutex_timedlock: whether each took the lock
 *   __causa_sem_trywait, __causa_sem_timedwait: whether each took a unit
 *   __causa_pthread_cond_timedwait: whether each was woken (not timed out)
 *   __causa_pthread_rwlock_tryrdlock, __causa_pthread_rwlock_trywrlock:
 *                             whether each took the lock
 * The log goes to $CAUSA_PATHS, else ./causa-paths-<pid>/, written to a
 * temporary directory first and renamed, so a log is never half-written.
 * A thread's decisions beyond SPILL bytes go to a spill file in that
 * temporary directory (complete runs only), so memory stays bounded; the
 * final file is assembled from spill and buffer. */
#define _GNU_SOURCE
#include <errno.h>
#include <semaphore.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <ucontext.h>
#include <link.h>
#include <sys/auxv.h>
#include <time.h>
#include <unistd.h>

#ifndef CAUSA_PATHS_VERSION
#error "CAUSA_PATHS_VERSION must be defined (causa build passes it)"
#endif

extern void *__causa_fn_ptrs[];
extern const char *__causa_fn_names[];
extern const int __causa_fn_count;
extern const char __causa_fingerprint[];
extern const char __causa_program[];

typedef struct {
    uint8_t *p;
    size_t len, cap;
} bytes_t;

typedef struct rec {
    char name[96];
    bytes_t dec;            /* encoded decisions, complete runs */
    uint64_t ndec;          /* decisions in `dec` and the spill file */
    uint64_t *run;          /* the open run of branch outcomes: the thread's */
    uint32_t *run_n;        /* `bits` and `nbits` (read by the writer too) */
    const char *targets[64];
    int ntargets;
    bytes_t inputs;         /* encoded (name, zigzag value) pairs */
    uint64_t ninputs;
    bytes_t onces;          /* one byte per pthread_once call */
    bytes_t values;         /* one varint per clock read (ns) or rand() */
    uint64_t nvalues;
    bytes_t tries;          /* one byte (1: took the lock) per lock try */
    bytes_t sizes;          /* one varint per size argument of a memcpy,
                               malloc, … call (causa_core SIZED_CALLS) */
    uint64_t nsizes;
    int children;
    int spill_fd;           /* 0: nothing spilled yet */
    uint64_t spilled;       /* decision bytes in the spill file */
    const char *site_file;  /* the last failure site reached */
    int site_line, site_col;
    struct rec *next;       /* every record, for writing at the end */
    atomic_flag busy;       /* held while `dec`, `inputs`, `targets` or the
                               outcomes (`onces`, `values`, `tries`, `sizes`) change,
                               and by the log's writer for good */
} rec_t;

/* The record's contents change only under `busy`. The writer of the log
   takes every record's for good: a thread that records afterwards waits
   (the process ends with the failure or the exit), instead of growing its
   buffer while the writer reads or grows it (a crash that lost the log). */
static void hold(rec_t *r) {
    while (atomic_flag_test_and_set_explicit(&r->busy, memory_order_acquire))
        sched_yield();
}

static void release(rec_t *r) { atomic_flag_clear_explicit(&r->busy, memory_order_release); }

#define SPILL (1u << 20)

static rec_t *all;                      /* pushed at thread creation only */
static char log_dir[4096], log_tmp[4200]; /* set at start */
static char exe_path[4096];                   /* /proc/self/exe, at start */
/* The executable's first byte and the end of its code (linker-defined). */
extern char __executable_start, etext;
/* Where the executable was loaded relative to its addresses in the ELF file
   (0 unless position-independent), at start. */
static uintptr_t exe_bias;
static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread rec_t *me;
/* The open run of branch outcomes (bit k of the 128 = the k-th), kept in
   thread-local words so that recording a branch is a few instructions. */
static __thread uint64_t bits[2];
static __thread uint32_t nbits;
/* The log: 0 not written, 1 being written (by `log_writer`), 2 written. */
static _Atomic int log_state;
static rec_t *_Atomic log_writer;

static void put(bytes_t *b, const void *data, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            fprintf(stderr, "causa recorder: out of memory\n");
            _exit(70);
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_byte(bytes_t *b, uint8_t x) { put(b, &x, 1); }

static void put_varint(bytes_t *b, uint64_t v) {
    for (;;) {
        uint8_t x = v & 0x7f;
        v >>= 7;
        if (!v) {
            put_byte(b, x);
            return;
        }
        put_byte(b, x | 0x80);
    }
}

static void put_str(bytes_t *b, const char *s) {
    size_t n = strlen(s);
    put_varint(b, n);
    put(b, s, n);
}

static rec_t *new_rec(const char *name) {
    rec_t *r = calloc(1, sizeof *r);
    if (!r) {
        fprintf(stderr, "causa recorder: out of memory\n");
        _exit(70);
    }
    snprintf(r->name, sizeof r->name, "%s", name);
    pthread_mutex_lock(&all_lock);
    r->next = all;
    all = r;
    pthread_mutex_unlock(&all_lock);
    return r;
}

static void close_run(rec_t *r);
static rec_t *self(void);

/* Bind `r` to the calling thread (its open run). */
static rec_t *bind(rec_t *r) {
    r->run = bits;
    r->run_n = &nbits;
    me = r;
    return r;
}

/* The thread ends: its open run goes into its record, which no longer
   points into the thread's (soon freed) thread-local storage. */
static void unbind(rec_t *r) {
    close_run(r);
    r->run = 0;
    r->run_n = 0;
}

void __causa_pthread_exit(void *ret) {
    unbind(self());
    pthread_exit(ret);
}

static rec_t *self(void) {
    if (!me)
        bind(new_rec("0"));
    return me;
}

static int write_all(int fd, const void *data, size_t n) {
    const uint8_t *p = data;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Move the thread's complete decision bytes to its spill file. */
static void spill(rec_t *r) {
    if (!r->spill_fd) {
        if (mkdir(log_tmp, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "causa recorder: cannot create %s: %s\n", log_tmp, strerror(errno));
            _exit(70);
        }
        char path[4400];
        snprintf(path, sizeof path, "%s/t%s.spill", log_tmp, r->name);
        r->spill_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        if (r->spill_fd <= 0) {
            fprintf(stderr, "causa recorder: cannot write %s: %s\n", path, strerror(errno));
            _exit(70);
        }
    }
    if (write_all(r->spill_fd, r->dec.p, r->dec.len) != 0) {
        fprintf(stderr, "causa recorder: cannot write the spill file of thread %s\n", r->name);
        _exit(70);
    }
    r->spilled += r->dec.len;
    r->dec.len = 0;
}

static void close_run_held(rec_t *r) {
    uint32_t n = r->run_n ? *r->run_n : 0;
    if (!n)
        return;
    put_byte(&r->dec, (uint8_t)(n - 1));
    put(&r->dec, r->run, (size_t)(n + 7) / 8); /* little-endian: bit 0 first */
    r->run[0] = r->run[1] = 0;
    *r->run_n = 0;
    r->ndec += n;
    if (r->dec.len >= SPILL)
        spill(r);
}

static void close_run(rec_t *r) {
    hold(r);
    close_run_held(r);
    release(r);
}

static void full_run(void) {
    nbits = 128;
    close_run(self());
}

void __causa_branch(_Bool taken) {
    uint32_t n = nbits;
    bits[n >> 6] |= (uint64_t)taken << (n & 63);
    if (++n == 128)
        full_run();
    else
        nbits = n;
}

void __causa_switch(uint32_t index) {
    rec_t *r = self();
    hold(r);
    close_run_held(r);
    put_byte(&r->dec, 0x80);
    put_varint(&r->dec, index);
    r->ndec++;
    if (r->dec.len >= SPILL)
        spill(r);
    release(r);
}

void __causa_icall(void *target) {
    rec_t *r = self();
    const char *name = "?";
    for (int i = 0; i < __causa_fn_count; i++)
        if (__causa_fn_ptrs[i] == target)
            name = __causa_fn_names[i];
    hold(r);
    int k = 0;
    while (k < r->ntargets && strcmp(r->targets[k], name) != 0)
        k++;
    if (k == r->ntargets) {
        if (k == 64) {
            fprintf(stderr, "causa recorder: more than 64 indirect-call targets in one thread\n");
            _exit(70);
        }
        r->targets[r->ntargets++] = name;
    }
    close_run_held(r);
    put_byte(&r->dec, 0x81);
    put_varint(&r->dec, (uint64_t)k);
    r->ndec++;
    if (r->dec.len >= SPILL)
        spill(r);
    release(r);
}

void __causa_site(const char *file, int line, int col) {
    rec_t *r = self();
    r->site_file = file;
    r->site_line = line;
    r->site_col = col;
}

/* ---- program inputs ---- */

static uint64_t input_state;

static uint64_t next_random(void) {
    /* Per-process seed; the values read are logged, so any source will do. */
    if (!input_state) {
        const char *s = getenv("CAUSA_SEED");
        input_state = s ? strtoull(s, 0, 10) * 2 + 1 : ((uint64_t)time(0) << 20) ^ (uint64_t)getpid() ^ 0x9e3779b97f4a7c15ull;
    }
    input_state ^= input_state << 13;
    input_state ^= input_state >> 7;
    input_state ^= input_state << 17;
    return input_state;
}

static int64_t input(const char *fn, int bits, int is_signed) {
    rec_t *r = self();
    uint64_t v = next_random();
    int64_t x;
    if (bits >= 64)
        x = (int64_t)v;
    else if (is_signed) {
        uint64_t m = v & ((1ull << bits) - 1);
        x = (int64_t)(m << (64 - bits)) >> (64 - bits);
    } else
        x = (int64_t)(v & ((1ull << bits) - 1));
    hold(r);
    put_str(&r->inputs, fn);
    put_varint(&r->inputs, ((uint64_t)x << 1) ^ (uint64_t)(x >> 63));
    r->ninputs++;
    release(r);
    return x;
}

#define NONDET(suffix, type, bits, sgn) \
    type __causa_nondet_##suffix(void) { return (type)input("__VERIFIER_nondet_" #suffix, bits, sgn); }
NONDET(int, int, 32, 1)
NONDET(uint, unsigned, 32, 0)
NONDET(long, long, 64, 1)
NONDET(ulong, unsigned long, 64, 0)
NONDET(short, short, 16, 1)
NONDET(ushort, unsigned short, 16, 0)
NONDET(char, char, 8, 1)
NONDET(uchar, unsigned char, 8, 0)
NONDET(bool, _Bool, 1, 0)
NONDET(_Bool, _Bool, 1, 0)
NONDET(size_t, unsigned long, 64, 0)

/* ---- outcomes: pthread_once, clocks and rand(), lock tries ---- */

/* pthread_once, done here rather than by the C library's, so that what
   each call found is known exactly (the C library's does not say whether
   a caller waited): every once object of the program (keyed by address)
   is not run (0), running (1) or done (2), under one lock. */
typedef struct once_rec {
    pthread_once_t *key;
    int state;
    struct once_rec *next;
} once_rec_t;
static once_rec_t *once_recs;
static pthread_mutex_t once_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t once_cond = PTHREAD_COND_INITIALIZER;

int __causa_pthread_once(pthread_once_t *once, void (*routine)(void)) {
    rec_t *r = self();
    pthread_mutex_lock(&once_lock);
    once_rec_t *e = once_recs;
    while (e && e->key != once)
        e = e->next;
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e) {
            fprintf(stderr, "causa recorder: out of memory\n");
            _exit(70);
        }
        e->key = once;
        e->next = once_recs;
        once_recs = e;
    }
    uint8_t found = (uint8_t)e->state;
    if (found == 0)
        e->state = 1;
    while (e->state == 1 && found != 0)
        pthread_cond_wait(&once_cond, &once_lock);
    pthread_mutex_unlock(&once_lock);
    hold(r);
    put_byte(&r->onces, found);
    release(r);
    if (found == 0) {
        routine();
        pthread_mutex_lock(&once_lock);
        e->state = 2;
        pthread_cond_broadcast(&once_cond);
        pthread_mutex_unlock(&once_lock);
    }
    return 0;
}

/* A size argument of a call causa's path logs record (memcpy's length,
   malloc's size, …): the pass calls this before each such call, once per
   argument, in the order the interpreter records them. */
void __causa_size(uint64_t v) {
    rec_t *r = self();
    hold(r);
    put_varint(&r->sizes, v);
    r->nsizes++;
    release(r);
}

static void note_value(uint64_t ns) {
    rec_t *r = self();
    hold(r);
    put_varint(&r->values, ns);
    r->nvalues++;
    release(r);
}

/* The clocks causa's interpreter knows (CLOCK_REALTIME … CLOCK_TAI) are
   read, in nanoseconds; another clock fails there without a read. */
int __causa_clock_gettime(clockid_t clk, struct timespec *ts) {
    int rc = clock_gettime(clk, ts);
    if (clk >= 0 && clk <= 11)
        note_value(rc == 0 ? (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec : 0);
    return rc;
}

int __causa_gettimeofday(struct timeval *tv, void *tz) {
    int rc = gettimeofday(tv, tz);
    note_value(rc == 0 && tv ? ((uint64_t)tv->tv_sec * 1000000ull + (uint64_t)tv->tv_usec) * 1000ull : 0);
    return rc;
}

clock_t __causa_clock(void) {
    clock_t c = clock();
    note_value(c >= 0 ? (uint64_t)c * 1000ull : 0);
    return c;
}

/* rand()'s state is the process's: which value a thread draws depends on
   the order of the threads' calls. */
int __causa_rand(void) {
    int v = rand();
    note_value((uint64_t)v);
    return v;
}

long __causa_random(void) {
    long v = random();
    note_value((uint64_t)v);
    return v;
}

/* What a read from a FILE delivered, as causa's interpreter notes it: the
   byte count (all ones for fgets' end of file), then the bytes eight to a
   value, little-endian. */
static void note_bytes(const void *data, size_t n) {
    const unsigned char *p = data;
    note_value((uint64_t)n);
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = 0;
        for (size_t k = 0; k < 8 && i + k < n; k++)
            v |= (uint64_t)p[i + k] << (8 * k);
        note_value(v);
    }
}

char *__causa_fgets(char *s, int n, FILE *f) {
    char *r = fgets(s, n, f);
    if (n > 0) {
        if (r)
            note_bytes(s, strlen(s));
        else
            note_value(UINT64_MAX);
    }
    return r;
}

int __causa_fgetc(FILE *f) {
    int c = fgetc(f);
    note_value((uint64_t)(uint32_t)c);
    return c;
}

int __causa_getc(FILE *f) {
    int c = getc(f);
    note_value((uint64_t)(uint32_t)c);
    return c;
}

/* fscanf: the bytes it consumed (read back from the file: the stream must
   be able to seek), then its result. A stream that cannot seek is noted
   as UINT64_MAX - 1, which causa reports instead of guessing. */
int __causa_fscanf(FILE *f, const char *format, ...) {
    long before = ftell(f);
    va_list ap;
    va_start(ap, format);
    int r = vfscanf(f, format, ap);
    va_end(ap);
    long after = ftell(f);
    if (before < 0 || after < before) {
        note_value(UINT64_MAX - 1);
        note_value((uint64_t)(uint32_t)r);
        return r;
    }
    size_t n = (size_t)(after - before);
    unsigned char *buf = malloc(n ? n : 1);
    if (buf && fseek(f, before, SEEK_SET) == 0 && fread(buf, 1, n, f) == n && fseek(f, after, SEEK_SET) == 0) {
        note_bytes(buf, n);
    } else {
        fseek(f, after, SEEK_SET);
        note_value(UINT64_MAX - 1);
    }
    free(buf);
    note_value((uint64_t)(uint32_t)r);
    return r;
}

ssize_t __causa_getline(char **line, size_t *cap, FILE *f) {
    ssize_t r = getline(line, cap, f);
    if (r >= 0)
        note_bytes(*line, (size_t)r);
    else
        note_value(UINT64_MAX);
    return r;
}

ssize_t __causa_getdelim(char **line, size_t *cap, int delim, FILE *f) {
    ssize_t r = getdelim(line, cap, delim, f);
    if (r >= 0)
        note_bytes(*line, (size_t)r);
    else
        note_value(UINT64_MAX);
    return r;
}

long __causa_ftell(FILE *f) {
    long p = ftell(f);
    note_value((uint64_t)p);
    return p;
}

int __causa_fseek(FILE *f, long offset, int whence) {
    int r = fseek(f, offset, whence);
    note_value((uint64_t)(uint32_t)r);
    return r;
}

size_t __causa_fread(void *p, size_t size, size_t count, FILE *f) {
    size_t r = fread(p, size, count, f);
    if (size > 0)
        note_bytes(p, r * size);
    return r;
}

/* Descriptors: open's descriptor (-1 as a u32), read's bytes as fread's
   (all ones for -1), close's result. */
int __causa_open(const char *path, int flags, ...) {
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    int fd = open(path, flags, mode);
    note_value((uint64_t)(uint32_t)fd);
    return fd;
}

ssize_t __causa_read(int fd, void *p, size_t n) {
    ssize_t r = read(fd, p, n);
    if (r >= 0)
        note_bytes(p, (size_t)r);
    else
        note_value(UINT64_MAX);
    return r;
}

int __causa_close(int fd) {
    int r = close(fd);
    note_value((uint64_t)(uint32_t)r);
    return r;
}

static int note_try(int rc) {
    rec_t *r = self();
    hold(r);
    put_byte(&r->tries, rc == 0);
    release(r);
    return rc;
}

int __causa_pthread_mutex_trylock(pthread_mutex_t *m) { return note_try(pthread_mutex_trylock(m)); }

int __causa_pthread_spin_trylock(pthread_spinlock_t *s) { return note_try(pthread_spin_trylock(s)); }

int __causa_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t) {
    return note_try(pthread_mutex_timedlock(m, t));
}

int __causa_sem_trywait(sem_t *s) { return note_try(sem_trywait(s)); }

int __causa_sem_timedwait(sem_t *s, const struct timespec *t) { return note_try(sem_timedwait(s, t)); }

int __causa_pthread_rwlock_tryrdlock(pthread_rwlock_t *l) { return note_try(pthread_rwlock_tryrdlock(l)); }

int __causa_pthread_rwlock_trywrlock(pthread_rwlock_t *l) { return note_try(pthread_rwlock_trywrlock(l)); }

int __causa_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t) {
    return note_try(pthread_cond_timedwait(c, m, t));
}

/* ---- writing the log ---- */

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* A thread's file: `head` (everything before the decision bytes), the
   spilled decision bytes, the buffered ones, `tail` (the outcomes), then
   the checksum of it all. */
static int write_thread(const char *path, rec_t *r, const bytes_t *head, const bytes_t *tail) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return -1;
    uint64_t h = fnv1a(0xcbf29ce484222325ull, head->p, head->len);
    int bad = write_all(fd, head->p, head->len);
    if (r->spill_fd > 0 && lseek(r->spill_fd, 0, SEEK_SET) == 0) {
        uint8_t chunk[65536];
        ssize_t k;
        while (!bad && (k = read(r->spill_fd, chunk, sizeof chunk)) > 0) {
            h = fnv1a(h, chunk, (size_t)k);
            bad = write_all(fd, chunk, (size_t)k);
        }
    }
    h = fnv1a(h, r->dec.p, r->dec.len);
    h = fnv1a(h, tail->p, tail->len);
    bad = bad || write_all(fd, r->dec.p, r->dec.len) || write_all(fd, tail->p, tail->len) || write_all(fd, &h, 8);
    return close(fd) || bad ? -1 : 0;
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The failure, when there is one. */
static const char *fail_kind;
static char fail_message[512];
static rec_t *fail_rec;
/* A crash by signal inside the executable's code: the faulting instruction's
   address in the ELF file (fail_pc_known: 1). */
static uintptr_t fail_pc;
static int fail_pc_known;

/* A run stopped from outside (Ctrl-C, `kill`, `timeout`): the signal's
   name. The log then records no failure but says the run was interrupted,
   and `causa reproduce` looks for the hang the paths end in. */
static const char *interrupted_by;

/* Written once, by the thread that exits or fails. Threads still running
   then keep recording into their buffers while they are read: their paths
   end wherever the write caught them (they were not part of the exit), and
   only the failing thread's path must be exact, which it is (it is the one
   writing). */
static void write_log_now(void);

/* Write the log once. A second thread that fails (two consumers reading an
   empty buffer) waits until the first one's log is complete: it used to
   return at once and abort, killing the process before the log was renamed
   into place. A thread re-entering through a signal while it writes the
   log does not wait for itself. */
static void write_log(void) {
    int none = 0;
    if (!atomic_compare_exchange_strong(&log_state, &none, 1)) {
        if (atomic_load(&log_writer) != self())
            while (atomic_load(&log_state) != 2)
                sched_yield();
        return;
    }
    atomic_store(&log_writer, self());
    write_log_now();
    atomic_store(&log_state, 2);
}

static void write_log_now(void) {
    const char *dir = log_dir, *tmp = log_tmp;
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "causa recorder: cannot create %s: %s\n", tmp, strerror(errno));
        return;
    }
    char path[4400];
    snprintf(path, sizeof path, "%s/manifest.json", tmp);
    FILE *m = fopen(path, "w");
    if (!m) {
        fprintf(stderr, "causa recorder: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fprintf(m, "{\n  \"format\": \"causa-paths\",\n  \"version\": %d,\n  \"program\": ", CAUSA_PATHS_VERSION);
    json_str(m, __causa_program);
    fprintf(m, ",\n  \"fingerprint\": ");
    json_str(m, __causa_fingerprint);
    fprintf(m, ",\n  \"memory_model\": \"sc\",\n  \"argv\": [");
    /* argv from /proc/self/cmdline */
    FILE *c = fopen("/proc/self/cmdline", "r");
    if (c) {
        char arg[4096];
        int n = 0, ch, first = 1;
        while ((ch = fgetc(c)) != EOF) {
            if (ch == 0) {
                arg[n] = 0;
                fprintf(m, first ? "" : ", ");
                json_str(m, first ? __causa_program : arg);
                first = 0;
                n = 0;
            } else if (n < (int)sizeof arg - 1)
                arg[n++] = (char)ch;
        }
        fclose(c);
    }
    fprintf(m, "],\n  \"failure\": ");
    if (fail_kind) {
        fprintf(m, "{\n    \"kind\": \"%s\",\n    \"message\": ", fail_kind);
        json_str(m, fail_message);
        fprintf(m, ",\n    \"thread\": ");
        json_str(m, fail_rec ? fail_rec->name : "0");
        if (fail_rec && fail_rec->site_file) {
            fprintf(m, ",\n    \"location\": {\"file\": ");
            json_str(m, fail_rec->site_file);
            fprintf(m, ", \"line\": %d, \"column\": %d}", fail_rec->site_line, fail_rec->site_col);
        } else
            fprintf(m, ",\n    \"location\": null");
        fprintf(m, ",\n    \"step\": 0\n  }");
    } else
        fprintf(m, "null");
    if (!fail_kind && interrupted_by)
        fprintf(m, ",\n  \"interrupted\": \"%s\"", interrupted_by);
    if (fail_kind && fail_pc_known && exe_path[0]) {
        fprintf(m, ",\n  \"native_crash\": {\"executable\": ");
        json_str(m, exe_path);
        fprintf(m, ", \"pc\": %llu}", (unsigned long long)fail_pc);
    }
    fprintf(m, ",\n  \"threads\": [");
    /* Threads in creation order: the list is newest first. */
    rec_t *order[4096];
    int n = 0;
    for (rec_t *r = all; r && n < 4096; r = r->next)
        order[n++] = r;
    for (int i = n - 1; i >= 0; i--) {
        rec_t *r = order[i];
        /* Taken for good (see `hold`); not this thread's own, which a
           signal may have interrupted while it held it. */
        if (r != me)
            hold(r);
        close_run_held(r);
        bytes_t b = {0};
        put(&b, "CAUSAPTH", 8);
        uint32_t version = CAUSA_PATHS_VERSION;
        put(&b, &version, 4);
        put_str(&b, r->name);
        put_varint(&b, (uint64_t)r->ntargets);
        for (int k = 0; k < r->ntargets; k++)
            put_str(&b, r->targets[k]);
        put_varint(&b, r->ninputs);
        put(&b, r->inputs.p, r->inputs.len);
        put_varint(&b, r->ndec);
        put_varint(&b, r->spilled + r->dec.len);
        bytes_t tail = {0};
        put_varint(&tail, r->onces.len);
        put(&tail, r->onces.p, r->onces.len);
        put_varint(&tail, r->nvalues);
        put(&tail, r->values.p, r->values.len);
        put_varint(&tail, r->tries.len);
        put(&tail, r->tries.p, r->tries.len);
        put_varint(&tail, r->nsizes);
        put(&tail, r->sizes.p, r->sizes.len);
        /* Synchronisation objects: the interpreter's addresses only. */
        put_varint(&tail, 0);
        char file[160];
        snprintf(file, sizeof file, "t%s.path", r->name);
        snprintf(path, sizeof path, "%s/%s", tmp, file);
        if (write_thread(path, r, &b, &tail) != 0)
            fprintf(stderr, "causa recorder: cannot write %s: %s\n", path, strerror(errno));
        if (r->spill_fd > 0) {
            char spilled[4400];
            snprintf(spilled, sizeof spilled, "%s/t%s.spill", tmp, r->name);
            unlink(spilled);
        }
        fprintf(m,
                "%s\n    {\"thread\": \"%s\", \"file\": \"%s\", \"decisions\": %llu, \"inputs\": %llu, "
                "\"onces\": %llu, \"values\": %llu, \"tries\": %llu, \"sizes\": %llu, \"objects\": 0}",
                i == n - 1 ? "" : ",", r->name, file, (unsigned long long)r->ndec, (unsigned long long)r->ninputs,
                (unsigned long long)r->onces.len, (unsigned long long)r->nvalues, (unsigned long long)r->tries.len,
                (unsigned long long)r->nsizes);
    }
    fprintf(m, "\n  ]\n}\n");
    fclose(m);
    /* An earlier log of the same name stays: the new one is left under its
       temporary name, and said so. */
    if (rename(tmp, dir) != 0)
        fprintf(stderr, "causa recorder: cannot rename %s to %s (%s); the log is in %s\n", tmp, dir, strerror(errno), tmp);
}

static void fail(const char *kind, const char *message) {
    if (!fail_kind) {
        fail_kind = kind;
        snprintf(fail_message, sizeof fail_message, "%s", message);
        fail_rec = self();
    }
    write_log();
}

void __causa_assert_fail(const char *expr, const char *file, unsigned line, const char *func) {
    char msg[480];
    snprintf(msg, sizeof msg, "assertion `%s` failed in %s", expr, func);
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, func, expr);
    fail("assertion-violation", msg);
    signal(SIGABRT, SIG_DFL);
    abort();
}

void __causa_reach_error(void) {
    fail("assertion-violation", "reach_error() is reachable");
    signal(SIGABRT, SIG_DFL);
    abort();
}

void __causa_abort(void) {
    fail("abort", "abort() was called");
    signal(SIGABRT, SIG_DFL);
    abort();
}

/* The faulting instruction of a signal, when it is in the executable's own
   code (not in a library). */
static void note_pc(void *context) {
    ucontext_t *uc = context;
    uintptr_t pc = 0;
#if defined(__x86_64__)
    pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    pc = (uintptr_t)uc->uc_mcontext.pc;
#else
    (void)uc;
#endif
    uintptr_t lo = (uintptr_t)&__executable_start, hi = (uintptr_t)&etext;
    if (pc >= lo && pc < hi) {
        fail_pc = pc - exe_bias;
        fail_pc_known = 1;
    }
}

static void on_signal(int sig, siginfo_t *info, void *context) {
    if (!fail_kind && sig != SIGABRT)
        note_pc(context);
    /* An integer division traps with SIGFPE: by zero, or INT_MIN / -1 (the
       interpreter's division-by-zero kind covers both). */
    const char *fpe = info && info->si_code == FPE_INTOVF ? "signed division overflow (SIGFPE)"
                                                          : "division by zero (SIGFPE)";
    const char *what = sig == SIGSEGV ? "invalid memory access (SIGSEGV)"
                       : sig == SIGBUS ? "invalid memory access (SIGBUS)"
                       : sig == SIGFPE ? fpe
                                       : "abort (SIGABRT)";
    const char *kind = sig == SIGABRT ? "abort" : sig == SIGFPE ? "division-by-zero" : "memory-error";
    fail(kind, what);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* SIGINT, SIGTERM, SIGHUP or SIGQUIT: the log is written with every
   thread's path as far as it got (a hung run's threads end in the calls
   they block in), and the signal then does what it would have done. The
   handler is reset on entry (SA_RESETHAND) and not blocked in itself
   (SA_NODEFER): a second Ctrl-C stops the run at once, even if writing the
   log were to hang. A program that installs its own handler for one of
   these signals replaces this one, and such a stop writes no log. */
static void on_interrupt(int sig) {
    interrupted_by = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGQUIT";
    write_log();
    if (!fail_kind)
        fprintf(stderr, "causa recorder: stopped by %s; the path log is in %s\n", interrupted_by, log_dir);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void at_exit(void) { write_log(); }

__attribute__((constructor)) static void start(void) {
    const char *env = getenv("CAUSA_PATHS");
    if (env && *env)
        snprintf(log_dir, sizeof log_dir, "%s", env);
    else
        snprintf(log_dir, sizeof log_dir, "causa-paths-%d", (int)getpid());
    snprintf(log_tmp, sizeof log_tmp, "%s.tmp-%d", log_dir, (int)getpid());
    self();
    atexit(at_exit);
    /* The program headers' own entry gives the load bias. */
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    unsigned long nph = getauxval(AT_PHNUM);
    exe_bias = (uintptr_t)&__executable_start;
    for (unsigned long i = 0; ph && i < nph; i++)
        if (ph[i].p_type == PT_PHDR)
            exe_bias = (uintptr_t)ph - ph[i].p_vaddr;
    ssize_t len = readlink("/proc/self/exe", exe_path, sizeof exe_path - 1);
    exe_path[len > 0 ? len : 0] = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, 0);
    sigaction(SIGBUS, &sa, 0);
    sigaction(SIGFPE, &sa, 0);
    sigaction(SIGABRT, &sa, 0);
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = on_interrupt;
    stop.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&stop.sa_mask);
    /* (A signal the program was started with ignored, `nohup`'s SIGHUP,
       stays ignored.) */
    int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (int i = 0; i < 4; i++) {
        struct sigaction old;
        if (sigaction(stops[i], 0, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(stops[i], &stop, 0);
    }
}

/* ---- threads ---- */

typedef struct {
    void *(*start)(void *);
    void *arg;
    rec_t *rec;
} boot_t;

static void *boot(void *p) {
    boot_t b = *(boot_t *)p;
    free(p);
    bind(b.rec);
    void *ret = b.start(b.arg);
    unbind(b.rec);
    return ret;
}

int __causa_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
    rec_t *parent = self();
    char name[96];
    snprintf(name, sizeof name, "%s.%d", parent->name, ++parent->children);
    boot_t *b = malloc(sizeof *b);
    if (!b)
        return EAGAIN;
    b->start = start;
    b->arg = arg;
    b->rec = new_rec(name);
    return pthread_create(t, attr, boot, b);
}
