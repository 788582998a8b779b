/*
 * versus.h: the versus protocol v1 helper for C programs (see docs/protocol.md).
 *
 * One header, C99, no dependencies beyond libc and POSIX (clock_gettime). Include it in the one .c
 * file of a benchmark program, before any other header (it asks for POSIX 2008 when the build names
 * no feature-test macro), and compile with e.g. `cc -O2 -pthread -I helpers/c prog.c`. Every function
 * is static: a program is one translation unit.
 *
 *     #include "versus.h"
 *
 *     static int add(versus_ctx *ctx, uint64_t inner)      // timed: the helper times this call
 *     {
 *         uint64_t total = 0;
 *         for (uint64_t i = 0; i < inner; i++)
 *             total += i & 7;
 *         return versus_check_u64(ctx, total);              // the check value; 0 = ok
 *     }
 *
 *     static int pool(versus_ctx *ctx)                      // manual: times itself
 *     {
 *         uint64_t t0 = versus_now_ns();
 *         ...                                               // ctx->inner iterations
 *         versus_metric(ctx, "lost", 3, "count");           // sent for measured samples only
 *         versus_check_str(ctx, "ok");
 *         return versus_sample(ctx, versus_now_ns() - t0, ctx->inner);
 *     }
 *
 *     static const versus_case cases[] = {VERSUS_TIMED("add", add), VERSUS_MANUAL("pool", pool)};
 *     int main(void) { return versus_run(cases, sizeof cases / sizeof cases[0]); }
 *
 * - Cases are listed (VERSUS_LIST=1) in the order of the array.
 * - VERSUS_INNER=0 calibrates as the Python and Java helpers do: inner doubles until a sample takes
 *   VERSUS_MIN_SAMPLE_NS (default 100 ms), then is scaled to that plus 10%; a manual case that ignores
 *   ctx->inner (its sample names another inner) is reported as it is, and its probe is the first sample.
 * - Parameters: versus_param(name, default) reads VERSUS_PARAM_<NAME>; versus_param_required fails the
 *   case, naming the parameters the run passes, when it is missing (a typo is not a default).
 * - A check is set with versus_check_u64/_i64/_str/f during a sample; it is sent after the sample.
 *   versus_check_u64 and _i64 only store the number (no formatting inside a timed call).
 * - A case fails by returning non-zero, best through `return versus_fail(ctx, "fmt", ...)`: the helper
 *   prints the message on stderr and exits 1 without `end`, which the harness records as a failed
 *   process run. Bad environment variables: a message on stderr, exit 2.
 * - Strings are taken as UTF-8 and sent as ASCII JSON (\uXXXX escapes, surrogate pairs above U+FFFF,
 *   U+FFFD for bytes that are not UTF-8).
 * - Not thread-safe: call the helper from the thread that runs the case.
 * - Clock: clock_gettime(CLOCK_MONOTONIC), named in `hello`.
 */
#ifndef VERSUS_H
#define VERSUS_H

#if !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE) && !defined(_GNU_SOURCE) && !defined(_DEFAULT_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c99; no effect once a libc header is in */
#endif

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#if defined(__GNUC__)
#define VERSUS_API static __attribute__((unused))
#define VERSUS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define VERSUS_API static
#define VERSUS_PRINTF(f, a)
#endif

#define VERSUS_PROTOCOL_VERSION 1
#define VERSUS_DEFAULT_MIN_SAMPLE_NS 100000000ULL
#define VERSUS_DEFAULT_WARMUP 1
#define VERSUS_DEFAULT_SAMPLES 3
#define VERSUS_MAX_INNER (1ULL << 40)
#define VERSUS_CLOCK "clock_gettime(CLOCK_MONOTONIC)"

#if defined(__clang__)
#define VERSUS_RUNTIME "clang"
#define VERSUS_STR2(x) #x
#define VERSUS_STR(x) VERSUS_STR2(x)
#define VERSUS_VERSION VERSUS_STR(__clang_major__) "." VERSUS_STR(__clang_minor__) "." VERSUS_STR(__clang_patchlevel__)
#elif defined(__GNUC__)
#define VERSUS_RUNTIME "gcc"
#define VERSUS_STR2(x) #x
#define VERSUS_STR(x) VERSUS_STR2(x)
#define VERSUS_VERSION VERSUS_STR(__GNUC__) "." VERSUS_STR(__GNUC_MINOR__) "." VERSUS_STR(__GNUC_PATCHLEVEL__)
#else
#define VERSUS_RUNTIME "cc"
#define VERSUS_VERSION "unknown"
#endif

typedef struct versus_ctx versus_ctx;

/* A timed case: the helper times fn(ctx, inner). Returns 0, or non-zero when it failed. */
typedef int (*versus_timed_fn)(versus_ctx *ctx, uint64_t inner);
/* A manual case: times itself and says so with versus_sample(ctx, ns, inner). */
typedef int (*versus_manual_fn)(versus_ctx *ctx);

typedef struct versus_case {
    const char *name;
    versus_timed_fn timed; /* exactly one of timed and manual */
    versus_manual_fn manual;
    void *arg; /* handed to the case as ctx->arg: one function can serve several cases */
} versus_case;

#define VERSUS_TIMED(name, fn) {(name), (fn), NULL, NULL}
#define VERSUS_TIMED_ARG(name, fn, arg) {(name), (fn), NULL, (void *)(arg)}
#define VERSUS_MANUAL(name, fn) {(name), NULL, (fn), NULL}
#define VERSUS_MANUAL_ARG(name, fn, arg) {(name), NULL, (fn), (void *)(arg)}

typedef struct versus_metric_rec {
    char *name;
    double value;
    char *unit;
} versus_metric_rec;

enum { VERSUS_CHECK_NONE, VERSUS_CHECK_U64, VERSUS_CHECK_I64, VERSUS_CHECK_TEXT };

/* What a case gets. The first four fields are the case's to read; the rest is the helper's. */
struct versus_ctx {
    const char *case_name;
    uint64_t inner; /* iterations wanted in this sample (>= 1) */
    int warmup;     /* 1 for a warmup sample (its metrics are not sent) */
    void *arg;      /* the case's arg */

    int has_sample;
    uint64_t sample_ns, sample_inner;
    int check_kind;
    uint64_t check_u64;
    int64_t check_i64;
    char *check_text;
    versus_metric_rec *metrics;
    size_t nmetrics, cap_metrics;
    char *error;
};

/* ------------------------------------------------------------------ clock, memory, text */

VERSUS_API uint64_t versus_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

VERSUS_API void *versus__alloc(void *old, size_t size)
{
    void *p = realloc(old, size ? size : 1);
    if (p == NULL) {
        fflush(stdout);
        fprintf(stderr, "versus.h: out of memory (%zu bytes)\n", size);
        exit(1);
    }
    return p;
}

VERSUS_API char *versus__strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return (char *)memcpy(versus__alloc(NULL, n), s, n);
}

/* printf into a fresh malloc'd string, whatever its length */
VERSUS_API char *versus__vformat(const char *fmt, va_list args)
{
    va_list again;
    char small[256];
    int n;
    char *out;
    va_copy(again, args);
    n = vsnprintf(small, sizeof small, fmt, args);
    if (n < 0) {
        va_end(again);
        return versus__strdup("(unformattable message)");
    }
    out = (char *)versus__alloc(NULL, (size_t)n + 1);
    if ((size_t)n < sizeof small)
        memcpy(out, small, (size_t)n + 1);
    else
        vsnprintf(out, (size_t)n + 1, fmt, again);
    va_end(again);
    return out;
}

VERSUS_API VERSUS_PRINTF(1, 2) char *versus__format(const char *fmt, ...)
{
    va_list args;
    char *out;
    va_start(args, fmt);
    out = versus__vformat(fmt, args);
    va_end(args);
    return out;
}

/* a growing byte buffer for one output line */
typedef struct {
    char *p;
    size_t len, cap;
} versus__buf;

VERSUS_API void versus__put(versus__buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 128;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->p = (char *)versus__alloc(b->p, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

VERSUS_API void versus__puts(versus__buf *b, const char *s)
{
    versus__put(b, s, strlen(s));
}

/* One code point decoded from UTF-8 at s (n >= 1 bytes left); *used gets the bytes it took. What is
   not well-formed UTF-8 decodes to U+FFFD, one per maximal subpart (the longest start of a valid
   sequence, else one byte), as Unicode recommends and Python's decode(errors="replace") does. */
VERSUS_API uint32_t versus__utf8(const unsigned char *s, size_t n, size_t *used)
{
    uint32_t c = s[0];
    unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
    size_t len, i;
    *used = 1;
    if (c < 0x80)
        return c;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        c &= 0x0F;
        if (s[0] == 0xE0)
            lo = 0xA0; /* no overlong forms */
        else if (s[0] == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        c &= 0x07;
        if (s[0] == 0xF0)
            lo = 0x90;
        else if (s[0] == 0xF4)
            hi = 0x8F; /* nothing above U+10FFFF */
    } else {
        return 0xFFFD;
    }
    for (i = 1; i < len; i++) {
        if (i >= n || s[i] < lo || s[i] > hi) {
            *used = i;
            return 0xFFFD;
        }
        c = (c << 6) | (s[i] & 0x3F);
        lo = 0x80;
        hi = 0xBF;
    }
    *used = len;
    return c;
}

/* s as a JSON string, in ASCII */
VERSUS_API void versus__json_str(versus__buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), used;
    char esc[16];
    versus__put(b, "\"", 1);
    while (n > 0) {
        uint32_t c = versus__utf8(p, n, &used);
        p += used;
        n -= used;
        switch (c) {
        case '"': versus__put(b, "\\\"", 2); break;
        case '\\': versus__put(b, "\\\\", 2); break;
        case '\n': versus__put(b, "\\n", 2); break;
        case '\r': versus__put(b, "\\r", 2); break;
        case '\t': versus__put(b, "\\t", 2); break;
        default:
            if (c >= 0x20 && c < 0x7F) {
                esc[0] = (char)c;
                versus__put(b, esc, 1);
            } else if (c <= 0xFFFF) {
                snprintf(esc, sizeof esc, "\\u%04x", (unsigned)c);
                versus__puts(b, esc);
            } else {
                c -= 0x10000;
                snprintf(esc, sizeof esc, "\\u%04x\\u%04x", (unsigned)(0xD800 + (c >> 10)),
                         (unsigned)(0xDC00 + (c & 0x3FF)));
                versus__puts(b, esc);
            }
        }
    }
    versus__put(b, "\"", 1);
}

/* the shortest %g form that reads back as the same double (callers pass finite values only) */
VERSUS_API void versus__json_double(versus__buf *b, double v)
{
    char text[40];
    int digits;
    for (digits = 15; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v)
            break;
    }
    versus__puts(b, text);
}

VERSUS_API void versus__key(versus__buf *b, const char *key)
{
    if (b->len > 0 && b->p[b->len - 1] != '{')
        versus__put(b, ",", 1);
    versus__json_str(b, key);
    versus__put(b, ":", 1);
}

VERSUS_API void versus__kv_str(versus__buf *b, const char *key, const char *value)
{
    versus__key(b, key);
    versus__json_str(b, value);
}

VERSUS_API void versus__kv_u64(versus__buf *b, const char *key, uint64_t value)
{
    char text[32];
    versus__key(b, key);
    snprintf(text, sizeof text, "%" PRIu64, value);
    versus__puts(b, text);
}

VERSUS_API void versus__emit(versus__buf *b)
{
    versus__put(b, "}\n", 2);
    fputs(b->p, stdout);
    fflush(stdout);
    b->len = 0;
    b->p[0] = '\0';
}

VERSUS_API void versus__begin(versus__buf *b, const char *type)
{
    b->len = 0;
    versus__puts(b, "@versus {");
    versus__kv_str(b, "type", type);
}

/* ------------------------------------------------------------------ what a case calls */

/* Records why the case failed (the helper prints it on stderr and exits 1); returns -1 to pass on. */
VERSUS_API VERSUS_PRINTF(2, 3) int versus_fail(versus_ctx *ctx, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    free(ctx->error);
    ctx->error = versus__vformat(fmt, args);
    va_end(args);
    return -1;
}

/* A manual case's measurement: ns for inner (>= 1) iterations. Returns 0, or -1 for a bad one. */
VERSUS_API int versus_sample(versus_ctx *ctx, int64_t ns, uint64_t inner)
{
    if (inner < 1)
        return versus_fail(ctx, "a sample needs inner >= 1, got %" PRIu64, inner);
    ctx->has_sample = 1;
    ctx->sample_ns = ns < 0 ? 0 : (uint64_t)ns;
    ctx->sample_inner = inner;
    return 0;
}

VERSUS_API void versus__clear_check(versus_ctx *ctx)
{
    free(ctx->check_text);
    ctx->check_text = NULL;
    ctx->check_kind = VERSUS_CHECK_NONE;
}

/* The check value of this sample (the last one set counts). Each returns 0. */
VERSUS_API int versus_check_u64(versus_ctx *ctx, uint64_t value)
{
    versus__clear_check(ctx);
    ctx->check_kind = VERSUS_CHECK_U64;
    ctx->check_u64 = value;
    return 0;
}

VERSUS_API int versus_check_i64(versus_ctx *ctx, int64_t value)
{
    versus__clear_check(ctx);
    ctx->check_kind = VERSUS_CHECK_I64;
    ctx->check_i64 = value;
    return 0;
}

VERSUS_API int versus_check_str(versus_ctx *ctx, const char *value)
{
    versus__clear_check(ctx);
    ctx->check_kind = VERSUS_CHECK_TEXT;
    ctx->check_text = versus__strdup(value);
    return 0;
}

VERSUS_API VERSUS_PRINTF(2, 3) int versus_checkf(versus_ctx *ctx, const char *fmt, ...)
{
    va_list args;
    versus__clear_check(ctx);
    va_start(args, fmt);
    ctx->check_text = versus__vformat(fmt, args);
    va_end(args);
    ctx->check_kind = VERSUS_CHECK_TEXT;
    return 0;
}

/* A metric of this sample (sent for measured samples only). Returns 0, or -1 (and fails the case)
   for a value that is not a finite number, which JSON cannot carry. */
VERSUS_API int versus_metric(versus_ctx *ctx, const char *name, double value, const char *unit)
{
    versus_metric_rec *m;
    if (!isfinite(value))
        return versus_fail(ctx, "metric \"%s\" is %f, not a finite number", name, value);
    if (ctx->nmetrics == ctx->cap_metrics) {
        ctx->cap_metrics = ctx->cap_metrics ? 2 * ctx->cap_metrics : 8;
        ctx->metrics = (versus_metric_rec *)versus__alloc(ctx->metrics, ctx->cap_metrics * sizeof *m);
    }
    m = &ctx->metrics[ctx->nmetrics++];
    m->name = versus__strdup(name);
    m->value = value;
    m->unit = versus__strdup(unit);
    return 0;
}

/* The experiment parameter VERSUS_PARAM_<NAME> (NAME upper-cased), or dflt when it is not set. */
VERSUS_API const char *versus_param(const char *name, const char *dflt)
{
    size_t n = strlen(name), i;
    char *key = (char *)versus__alloc(NULL, n + sizeof "VERSUS_PARAM_");
    const char *value;
    memcpy(key, "VERSUS_PARAM_", sizeof "VERSUS_PARAM_" - 1);
    for (i = 0; i < n; i++)
        key[sizeof "VERSUS_PARAM_" - 1 + i] = (char)toupper((unsigned char)name[i]);
    key[sizeof "VERSUS_PARAM_" - 1 + n] = '\0';
    value = getenv(key);
    free(key);
    return value ? value : dflt;
}

extern char **environ; /* POSIX: the process's environment, for the names of the passed parameters */

static int versus__cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A parameter the case cannot do without: 0 and *out = its value, or -1 and the case fails with a
   message naming, sorted, the parameters the run does pass (a misspelt name is an error, not a default). */
VERSUS_API int versus_param_required(versus_ctx *ctx, const char *name, const char **out)
{
    static const char prefix[] = "VERSUS_PARAM_";
    versus__buf known = {NULL, 0, 0};
    char **names = NULL, **env;
    size_t count = 0, i;
    int rc;
    *out = versus_param(name, NULL);
    if (*out != NULL)
        return 0;
    for (env = environ; env && *env; env++) {
        const char *p = *env + sizeof prefix - 1;
        size_t n = 0;
        if (strncmp(*env, prefix, sizeof prefix - 1) != 0)
            continue;
        while (p[n] && p[n] != '=')
            n++;
        names = (char **)versus__alloc(names, (count + 1) * sizeof *names);
        names[count] = (char *)versus__alloc(NULL, n + 1);
        for (i = 0; i < n; i++)
            names[count][i] = (char)tolower((unsigned char)p[i]);
        names[count++][n] = '\0';
    }
    if (count)
        qsort(names, count, sizeof *names, versus__cmp_names);
    for (i = 0; i < count; i++) {
        if (i)
            versus__puts(&known, ", ");
        versus__puts(&known, names[i]);
        free(names[i]);
    }
    free(names);
    rc = versus_fail(ctx, "unknown parameter '%s': this run passes %s; give versus_param a default to make it optional",
                     name, count ? known.p : "no parameters");
    free(known.p);
    return rc;
}

/* text as a whole integer >= minimum (surrounding blanks allowed): 0, or -1 */
VERSUS_API int versus__parse_i64(const char *text, int64_t minimum, int64_t *out)
{
    char *end;
    long long v;
    while (isspace((unsigned char)*text))
        text++;
    if (*text == '\0')
        return -1;
    errno = 0;
    v = strtoll(text, &end, 10);
    if (end == text || errno == ERANGE)
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || v < minimum)
        return -1;
    *out = (int64_t)v;
    return 0;
}

/* VERSUS_PARAM_<NAME> as an integer >= 0 (dflt when unset). Returns 0, or -1 and fails the case. */
VERSUS_API int versus_param_u64(versus_ctx *ctx, const char *name, uint64_t dflt, uint64_t *out)
{
    const char *text = versus_param(name, NULL);
    int64_t v;
    if (text == NULL) {
        *out = dflt;
        return 0;
    }
    if (versus__parse_i64(text, 0, &v) < 0)
        return versus_fail(ctx, "parameter %s=\"%s\" is not an integer >= 0", name, text);
    *out = (uint64_t)v;
    return 0;
}

/* ------------------------------------------------------------------ running */

VERSUS_API void versus__reset(versus_ctx *ctx, const versus_case *c, uint64_t inner, int warmup)
{
    size_t i;
    for (i = 0; i < ctx->nmetrics; i++) {
        free(ctx->metrics[i].name);
        free(ctx->metrics[i].unit);
    }
    ctx->nmetrics = 0;
    versus__clear_check(ctx);
    free(ctx->error);
    ctx->error = NULL;
    ctx->has_sample = 0;
    ctx->case_name = c->name;
    ctx->inner = inner;
    ctx->warmup = warmup;
    ctx->arg = c->arg;
}

VERSUS_API void versus__case_failed(versus_ctx *ctx, const char *why)
{
    fflush(stdout);
    fprintf(stderr, "versus.h: case \"%s\" failed: %s\n", ctx->case_name, why);
    fflush(stderr);
    exit(1);
}

/* One sample of the case; exits 1 when it fails. */
VERSUS_API void versus__call(versus_ctx *ctx, const versus_case *c, uint64_t inner, int warmup)
{
    int rc;
    versus__reset(ctx, c, inner, warmup);
    if (c->timed) {
        uint64_t start = versus_now_ns(), elapsed;
        rc = c->timed(ctx, inner);
        elapsed = versus_now_ns() - start;
        if (rc == 0)
            rc = versus_sample(ctx, (int64_t)elapsed, inner);
    } else {
        rc = c->manual(ctx);
        if (rc == 0 && !ctx->has_sample)
            rc = versus_fail(ctx, "the manual case returned 0 without versus_sample()");
    }
    if (rc != 0) {
        char code[48];
        snprintf(code, sizeof code, "it returned %d", rc);
        versus__case_failed(ctx, ctx->error ? ctx->error : code);
    }
}

VERSUS_API void versus__report(versus_ctx *ctx, versus__buf *b)
{
    char text[32];
    size_t i;
    versus__begin(b, "sample");
    versus__kv_str(b, "case", ctx->case_name);
    versus__kv_u64(b, "ns", ctx->sample_ns);
    versus__kv_u64(b, "inner", ctx->sample_inner);
    versus__key(b, "warmup");
    versus__puts(b, ctx->warmup ? "true" : "false");
    versus__emit(b);
    if (ctx->check_kind != VERSUS_CHECK_NONE) {
        versus__begin(b, "check");
        versus__kv_str(b, "case", ctx->case_name);
        if (ctx->check_kind == VERSUS_CHECK_U64)
            snprintf(text, sizeof text, "%" PRIu64, ctx->check_u64);
        else if (ctx->check_kind == VERSUS_CHECK_I64)
            snprintf(text, sizeof text, "%" PRId64, ctx->check_i64);
        versus__kv_str(b, "value", ctx->check_kind == VERSUS_CHECK_TEXT ? ctx->check_text : text);
        versus__emit(b);
    }
    if (ctx->warmup)
        return;
    for (i = 0; i < ctx->nmetrics; i++) {
        versus__begin(b, "metric");
        versus__kv_str(b, "case", ctx->case_name);
        versus__kv_str(b, "name", ctx->metrics[i].name);
        versus__key(b, "value");
        versus__json_double(b, ctx->metrics[i].value);
        versus__kv_str(b, "unit", ctx->metrics[i].unit);
        versus__emit(b);
    }
}

/* Doubles inner until a sample takes >= min_ns (a sample that reaches it is measured once more and the
   faster is kept, so a one-time cost in an early call does not stop the doubling too soon), then scales
   it to min_ns + 10%, re-measuring and re-scaling up to 3 times while a sample falls short. Returns the
   inner to use, or 0 when the case sizes itself: its probe (still in ctx) is then the first sample. */
VERSUS_API uint64_t versus__calibrate(versus_ctx *ctx, const versus_case *c, uint64_t min_ns, int first_warmup)
{
    uint64_t inner = 1, best_ns;
    double target = (double)min_ns * 1.1;
    int i;
    for (;;) {
        versus__call(ctx, c, inner, first_warmup);
        if (ctx->sample_inner != inner)
            return 0;
        best_ns = ctx->sample_ns;
        if (inner >= VERSUS_MAX_INNER)
            break;
        if (best_ns >= min_ns) {
            versus__call(ctx, c, inner, first_warmup);
            if (ctx->sample_ns < best_ns)
                best_ns = ctx->sample_ns;
            if (best_ns >= min_ns / 2)
                break;
        }
        inner *= 2;
    }
    for (i = 0; i < 3; i++) {
        if (best_ns > 0) {
            double scaled = (double)inner * target / (double)best_ns + 0.5;
            inner = scaled < 1 ? 1 : scaled > (double)VERSUS_MAX_INNER ? VERSUS_MAX_INNER : (uint64_t)scaled;
        }
        versus__call(ctx, c, inner, first_warmup);
        best_ns = ctx->sample_ns;
        if (best_ns >= min_ns)
            break;
    }
    printf("calibrated %s: inner=%" PRIu64 " (last probe %" PRIu64 " ns)\n", c->name, inner, best_ns);
    fflush(stdout);
    return inner;
}

VERSUS_API VERSUS_PRINTF(1, 2) void versus__usage(const char *fmt, ...)
{
    va_list args;
    fflush(stdout);
    fputs("versus.h: ", stderr);
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    fflush(stderr);
    exit(2);
}

/* VERSUS_<name> as an integer >= minimum, or dflt when unset or blank; a usage error otherwise */
VERSUS_API int64_t versus__env_int(const char *name, int64_t dflt, int64_t minimum)
{
    const char *text = getenv(name), *p = text;
    int64_t v;
    if (text == NULL)
        return dflt;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '\0')
        return dflt;
    if (versus__parse_i64(text, INT64_MIN, &v) < 0)
        versus__usage("%s=\"%s\" is not an integer", name, text);
    if (v < minimum)
        versus__usage("%s=\"%s\" must be >= %" PRId64, name, text, minimum);
    return v;
}

VERSUS_API int versus__is_blank(const char *text)
{
    while (text && isspace((unsigned char)*text))
        text++;
    return text == NULL || *text == '\0';
}

/* text, without surrounding blanks, is exactly word */
VERSUS_API int versus__trimmed_is(const char *text, const char *word)
{
    size_t n = strlen(word);
    while (isspace((unsigned char)*text))
        text++;
    if (strncmp(text, word, n) != 0)
        return 0;
    text += n;
    while (isspace((unsigned char)*text))
        text++;
    return *text == '\0';
}

VERSUS_API void versus__hello(versus__buf *b)
{
    char impl[256];
#ifdef __GLIBC__
    const char *libc = "glibc ", *libc_version = gnu_get_libc_version();
#else
    const char *libc = "libc", *libc_version = "";
#endif
#ifdef __OPTIMIZE__
    const char *optimized = "optimized";
#else
    const char *optimized = "not optimized";
#endif
    snprintf(impl, sizeof impl, "%s %s, %s%s, %s", VERSUS_RUNTIME, __VERSION__, libc, libc_version, optimized);
    b->len = 0;
    versus__puts(b, "@versus {\"v\":1");
    versus__kv_str(b, "type", "hello");
    versus__kv_str(b, "runtime", VERSUS_RUNTIME);
    versus__kv_str(b, "version", VERSUS_VERSION);
    versus__kv_str(b, "clock", VERSUS_CLOCK);
    versus__kv_str(b, "impl", impl);
    versus__emit(b);
}

/* Runs VERSUS_CASE as the environment says, speaking protocol v1 on stdout. Returns 0 (for main) after
   `end`; exits 1 when the case fails and 2 on a bad environment. */
VERSUS_API int versus_run(const versus_case *cases, size_t count)
{
    versus__buf b = {NULL, 0, 0};
    versus_ctx ctx;
    const versus_case *c = NULL;
    const char *protocol = getenv("VERSUS_PROTOCOL"), *name;
    int listing = !versus__is_blank(getenv("VERSUS_LIST")) && !versus__trimmed_is(getenv("VERSUS_LIST"), "0");
    int64_t warmup = 0, samples = 0, index;
    uint64_t inner = 0, min_ns = 0;
    size_t i;
    char *names;

    memset(&ctx, 0, sizeof ctx);
    for (i = 0; i < count; i++)
        if ((cases[i].timed == NULL) == (cases[i].manual == NULL) || cases[i].name == NULL || !cases[i].name[0])
            versus__usage("case #%zu of the program needs a name and exactly one of timed and manual "
                          "(use VERSUS_TIMED or VERSUS_MANUAL)", i + 1);
    if (protocol != NULL && !versus__trimmed_is(protocol, "1"))
        versus__usage("VERSUS_PROTOCOL=\"%s\" is not supported (this helper speaks 1)", protocol);
    if (!listing) {
        size_t len = 1;
        for (i = 0; i < count; i++)
            len += strlen(cases[i].name) + 2;
        names = (char *)versus__alloc(NULL, len);
        names[0] = '\0';
        for (i = 0; i < count; i++) {
            if (i)
                strcat(names, ", ");
            strcat(names, cases[i].name);
        }
        name = getenv("VERSUS_CASE");
        if (name == NULL || name[0] == '\0')
            versus__usage("VERSUS_CASE is not set (cases: %s)", names);
        for (i = 0; i < count && c == NULL; i++)
            if (strcmp(cases[i].name, name) == 0)
                c = &cases[i];
        if (c == NULL)
            versus__usage("VERSUS_CASE=\"%s\" is not a case of this program (cases: %s)", name, names);
        free(names);
        warmup = versus__env_int("VERSUS_WARMUP", VERSUS_DEFAULT_WARMUP, 0);
        samples = versus__env_int("VERSUS_SAMPLES", VERSUS_DEFAULT_SAMPLES, 0);
        inner = (uint64_t)versus__env_int("VERSUS_INNER", 0, 0);
        min_ns = (uint64_t)versus__env_int("VERSUS_MIN_SAMPLE_NS", (int64_t)VERSUS_DEFAULT_MIN_SAMPLE_NS, 1);
    }

    versus__hello(&b);
    if (listing) {
        for (i = 0; i < count; i++) {
            versus__begin(&b, "case");
            versus__kv_str(&b, "name", cases[i].name);
            versus__emit(&b);
        }
    } else {
        int pending = 0;
        if (inner == 0 && warmup + samples > 0) {
            inner = versus__calibrate(&ctx, c, min_ns, warmup > 0);
            pending = inner == 0; /* a self-sized case: its probe is the first sample */
        }
        for (index = 0; index < warmup + samples; index++) {
            int is_warmup = index < warmup;
            if (pending)
                pending = 0;
            else
                versus__call(&ctx, c, inner, is_warmup);
            ctx.warmup = is_warmup;
            versus__report(&ctx, &b);
        }
        versus__reset(&ctx, c, 0, 0);
        free(ctx.metrics);
    }
    versus__begin(&b, "end");
    versus__emit(&b);
    free(b.p);
    return 0;
}

#endif /* VERSUS_H */
