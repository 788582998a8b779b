/* A tiny program for tests/test_c_helper.py: every feature of helpers/c/versus.h.
   The cases add, manual, self_sized and boom are those of helper_prog.py/.rb/HelperProg.java; the rest
   test what only C can get wrong (bytes that are not UTF-8, metrics that are not numbers, threads). */
#include "versus.h"

#include <pthread.h>

static uint64_t add_loop(uint64_t n)
{
    uint64_t total = 0, i;
    for (i = 0; i < n; i++)
        total += i & 7;
    return total;
}

static int add(versus_ctx *ctx, uint64_t inner)
{
    return versus_check_u64(ctx, add_loop(inner));
}

static int manual(versus_ctx *ctx)
{
    uint64_t start = versus_now_ns(), total;
    uint64_t inner = ctx->inner ? ctx->inner : 10;
    total = add_loop(inner);
    versus_metric(ctx, "na\xc3\xafve \"q\" \xe2\x98\x83 \xf0\x9f\x98\x80", 242, "bytes");
    versus_metric(ctx, "ratio", 0.5, "1");
    versus_checkf(ctx, "%s:%" PRIu64, versus_param("expect", "none"), total);
    return versus_sample(ctx, (int64_t)(versus_now_ns() - start), inner);
}

static int self_sized(versus_ctx *ctx)
{
    uint64_t start = versus_now_ns();
    if (add_loop(1000) != 3500)
        return versus_fail(ctx, "add_loop(1000) is wrong");
    versus_check_str(ctx, "true");
    return versus_sample(ctx, (int64_t)(versus_now_ns() - start), 1000);
}

static int boom(versus_ctx *ctx, uint64_t inner)
{
    (void)inner;
    return versus_fail(ctx, "boom from the test program (%s)", ctx->case_name);
}

/* every byte 0x01..0x7f, an invalid byte, a lone continuation, a truncated sequence, an encoded
   surrogate and an overlong '/': the test compares the decoded text with Python's */
static int escapes(versus_ctx *ctx, uint64_t inner)
{
    char text[200];
    size_t n = 0;
    int c;
    (void)inner;
    for (c = 1; c < 0x80; c++)
        text[n++] = (char)c;
    strcpy(text + n, "|\xff|\x80|\xe2\x98|\xed\xa0\x80|\xc0\xaf|");
    return versus_check_str(ctx, text);
}

/* the bytes of VERSUS_PARAM_TEXT as the check: the test sends random bytes */
static int echo(versus_ctx *ctx, uint64_t inner)
{
    (void)inner;
    return versus_check_str(ctx, versus_param("text", ""));
}

static int bad_metric(versus_ctx *ctx)
{
    if (versus_metric(ctx, "speed", 0.0 / 0.0, "1/s") != 0)
        return -1; /* the helper's own message says why */
    return versus_sample(ctx, 1, 1);
}

static int silent_failure(versus_ctx *ctx, uint64_t inner)
{
    (void)ctx;
    (void)inner;
    return 7;
}

static int no_sample(versus_ctx *ctx)
{
    (void)ctx;
    return 0;
}

/* a parameter that must be an integer; the check is its square and the case's arg */
static int param_u64(versus_ctx *ctx, uint64_t inner)
{
    uint64_t n = 0;
    (void)inner;
    if (versus_param_u64(ctx, "n", 3, &n) != 0)
        return -1;
    return versus_checkf(ctx, "%" PRIu64 ":%s", n * n, (const char *)ctx->arg);
}

/* a misspelt parameter without a default: an error that names the real ones */
static int typo(versus_ctx *ctx, uint64_t inner)
{
    const char *value;
    (void)inner;
    if (versus_param_required(ctx, "expectt", &value) != 0)
        return -1;
    return versus_check_str(ctx, value);
}

/* a worker thread does the work; the case times itself and says how many it did */
struct job {
    uint64_t n, total;
};

static void *work(void *arg)
{
    struct job *job = (struct job *)arg;
    job->total = add_loop(job->n);
    return NULL;
}

static int threaded(versus_ctx *ctx)
{
    struct job job;
    pthread_t thread;
    uint64_t start;
    int rc;
    job.n = ctx->inner;
    start = versus_now_ns();
    rc = pthread_create(&thread, NULL, work, &job);
    if (rc != 0)
        return versus_fail(ctx, "pthread_create: %s", strerror(rc));
    pthread_join(thread, NULL);
    versus_check_u64(ctx, job.total);
    return versus_sample(ctx, (int64_t)(versus_now_ns() - start), ctx->inner);
}

static const versus_case cases[] = {
    VERSUS_TIMED("add", add),
    VERSUS_MANUAL("manual", manual),
    VERSUS_MANUAL("self_sized", self_sized),
    VERSUS_TIMED("boom", boom),
    VERSUS_TIMED("escapes", escapes),
    VERSUS_TIMED("echo", echo),
    VERSUS_MANUAL("bad_metric", bad_metric),
    VERSUS_TIMED("silent_failure", silent_failure),
    VERSUS_MANUAL("no_sample", no_sample),
    VERSUS_TIMED_ARG("param_u64", param_u64, "arg"),
    VERSUS_MANUAL("threaded", threaded),
    VERSUS_TIMED("typo", typo),
};

int main(void)
{
    return versus_run(cases, sizeof cases / sizeof cases[0]);
}
