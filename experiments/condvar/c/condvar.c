// versus: include ../../../subjects/fastcond/src
/*
 * condvar.c: the C side of PythonPlus's claims (Kristján Valur Jónsson, 2013) on this machine's
 * glibc: is a lock built on pthread_mutex_t + pthread_cond_t slower than one on sem_t, and is an
 * emulated condition variable (a pthread_mutex_t and a sem_t per waiter: fastcond's, from
 * subjects/fastcond/src/emucond.h, the very code fastcond.c runs) faster than pthread_cond_t?
 *
 * Build, from the repository root (what the harness's c family does, per compiler, adding its own
 * -std=gnu11 -Wall; the `versus: include` line below tells it the second folder):
 *
 *     cc -O2 -pthread -I helpers/c -I subjects/fastcond/src experiments/condvar/c/condvar.c -o condvar
 *
 * Every case hands `inner` items from a producer (the calling thread) to a consumer (a thread of its
 * own) through a one-slot mailbox, and checks on the consumer's side that it got 0, 1, ..., inner-1,
 * each once and in order; the check value is the number of handoffs so verified (= inner). The sample
 * is the time from starting the consumer to joining it (thread start and join are two of the
 * inner >= thousands of handoffs' worth of work; every case pays them alike).
 *
 *   lock_sem         giltest.py's Lock pair: two locks used as binary semaphores ("may put", "may
 *                    take"), each lock a sem_t (acquire = sem_wait, release = sem_post), like
 *                    CPython's lock where POSIX semaphores are available
 *   lock_mutex_cond  the same pair, each lock a pthread_mutex_t + pthread_cond_t + a `locked` flag
 *                    (acquire: wait on the cond while locked; release: clear, signal), like CPython's
 *                    lock without semaphores: the change the post says "slowed down execution"
 *   cond_pthread     a mailbox guarded by a pthread_mutex_t with one pthread_cond_t; each side waits
 *                    while it is not its turn and signals after its move, holding the mutex (as
 *                    threading.Condition is used: notify() needs the lock)
 *   cond_emulated    the same with fastcond's emulated condition variable (emucond_wait,
 *                    emucond_notify) in place of pthread_cond_t
 *
 * Metrics (measured samples): handoffs_per_s; voluntary_switches_per_handoff (getrusage, both
 * threads: how often a thread went to sleep in the kernel); cpu_ns_per_handoff (user + system).
 */
#include "versus.h"

#include <pthread.h>
#include <semaphore.h>
#include <sys/resource.h>

#include "emucond.h"

static void die(const char *what, int err)
{
    fflush(stdout);
    fprintf(stderr, "condvar: %s: %s\n", what, strerror(err));
    exit(1); /* a failed process run: no `end` */
}

#define CHECK(call)                                                                                      \
    do {                                                                                                 \
        int rc_ = (call);                                                                                \
        if (rc_ != 0)                                                                                    \
            die(#call, rc_);                                                                             \
    } while (0)

/* ------------------------------------------------------------------ the two locks */

typedef struct {
    sem_t sem;
} sem_lock;

static void sem_lock_init(sem_lock *l, int locked)
{
    if (sem_init(&l->sem, 0, locked ? 0 : 1) != 0)
        die("sem_init", errno);
}

static void sem_lock_destroy(sem_lock *l)
{
    sem_destroy(&l->sem);
}

static void sem_lock_acquire(sem_lock *l)
{
    while (sem_wait(&l->sem) != 0)
        if (errno != EINTR)
            die("sem_wait", errno);
}

static void sem_lock_release(sem_lock *l)
{
    if (sem_post(&l->sem) != 0)
        die("sem_post", errno);
}

typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t released;
    int locked;
} mc_lock;

static void mc_lock_init(mc_lock *l, int locked)
{
    CHECK(pthread_mutex_init(&l->mutex, NULL));
    CHECK(pthread_cond_init(&l->released, NULL));
    l->locked = locked;
}

static void mc_lock_destroy(mc_lock *l)
{
    pthread_cond_destroy(&l->released);
    pthread_mutex_destroy(&l->mutex);
}

static void mc_lock_acquire(mc_lock *l)
{
    CHECK(pthread_mutex_lock(&l->mutex));
    while (l->locked)
        CHECK(pthread_cond_wait(&l->released, &l->mutex));
    l->locked = 1;
    CHECK(pthread_mutex_unlock(&l->mutex));
}

static void mc_lock_release(mc_lock *l)
{
    CHECK(pthread_mutex_lock(&l->mutex));
    l->locked = 0;
    CHECK(pthread_cond_signal(&l->released));
    CHECK(pthread_mutex_unlock(&l->mutex));
}

/* ------------------------------------------------------------------ the two condition variables */

typedef struct {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
} pt_cond;

static void pt_cond_init(pt_cond *c)
{
    CHECK(pthread_mutex_init(&c->mutex, NULL));
    CHECK(pthread_cond_init(&c->cond, NULL));
}

static void pt_cond_destroy(pt_cond *c)
{
    pthread_cond_destroy(&c->cond);
    pthread_mutex_destroy(&c->mutex);
}

#define pt_cond_wait(c) CHECK(pthread_cond_wait(&(c)->cond, &(c)->mutex))
#define pt_cond_notify(c) CHECK(pthread_cond_signal(&(c)->cond))

typedef struct {
    pthread_mutex_t mutex;
    emucond cond;
} emu_cond;

static void emu_cond_init(emu_cond *c)
{
    CHECK(pthread_mutex_init(&c->mutex, NULL));
    CHECK(emucond_init(&c->cond));
}

static void emu_cond_destroy(emu_cond *c)
{
    emucond_destroy(&c->cond);
    pthread_mutex_destroy(&c->mutex);
}

#define emu_cond_wait(c) CHECK(emucond_wait(&(c)->cond, &(c)->mutex))
#define emu_cond_notify(c) ((void)emucond_notify(&(c)->cond, 1))

/* ------------------------------------------------------------------ the pairs */

/* what the consumer saw */
typedef struct {
    uint64_t n, count, out_of_order;
} tally;

static void tally_item(tally *t, uint64_t item)
{
    if (item != t->count)
        t->out_of_order++;
    t->count++;
#ifdef CONDVAR_FAULT
    if (item == 7)
        t->count++; /* tests/test_condvar.py: a miscount must fail the run */
#endif
}

/* One pair per primitive, written out by a macro so that each loop calls its primitive directly. */

#define LOCK_PAIR(kind)                                                                                  \
    typedef struct {                                                                                     \
        kind##_lock may_put, may_take;                                                                   \
        uint64_t box;                                                                                    \
        tally seen;                                                                                      \
    } kind##_pair;                                                                                       \
                                                                                                         \
    static void *kind##_consumer(void *arg)                                                              \
    {                                                                                                    \
        kind##_pair *p = (kind##_pair *)arg;                                                             \
        uint64_t k;                                                                                      \
        for (k = 0; k < p->seen.n; k++) {                                                                \
            kind##_lock_acquire(&p->may_take);                                                           \
            tally_item(&p->seen, p->box);                                                                \
            kind##_lock_release(&p->may_put);                                                            \
        }                                                                                                \
        return NULL;                                                                                     \
    }                                                                                                    \
                                                                                                         \
    static uint64_t kind##_handoffs(uint64_t n, tally *seen)                                             \
    {                                                                                                    \
        kind##_pair p;                                                                                   \
        pthread_t consumer;                                                                              \
        uint64_t i, t0, t1;                                                                              \
        memset(&p, 0, sizeof p);                                                                         \
        kind##_lock_init(&p.may_put, 0);                                                                 \
        kind##_lock_init(&p.may_take, 1); /* the mailbox starts empty */                                 \
        p.seen.n = n;                                                                                    \
        t0 = versus_now_ns();                                                                            \
        CHECK(pthread_create(&consumer, NULL, kind##_consumer, &p));                                     \
        for (i = 0; i < n; i++) {                                                                        \
            kind##_lock_acquire(&p.may_put);                                                             \
            p.box = i;                                                                                   \
            kind##_lock_release(&p.may_take);                                                            \
        }                                                                                                \
        CHECK(pthread_join(consumer, NULL));                                                             \
        t1 = versus_now_ns();                                                                            \
        kind##_lock_destroy(&p.may_put);                                                                 \
        kind##_lock_destroy(&p.may_take);                                                                \
        *seen = p.seen;                                                                                  \
        return t1 - t0;                                                                                  \
    }

#define COND_PAIR(kind)                                                                                  \
    typedef struct {                                                                                     \
        kind##_cond cond;                                                                                \
        uint64_t box;                                                                                    \
        int full;                                                                                        \
        tally seen;                                                                                      \
    } kind##_pair;                                                                                       \
                                                                                                         \
    static void *kind##_consumer(void *arg)                                                              \
    {                                                                                                    \
        kind##_pair *p = (kind##_pair *)arg;                                                             \
        uint64_t k;                                                                                      \
        for (k = 0; k < p->seen.n; k++) {                                                                \
            CHECK(pthread_mutex_lock(&p->cond.mutex));                                                   \
            while (!p->full)                                                                             \
                kind##_cond_wait(&p->cond);                                                              \
            tally_item(&p->seen, p->box);                                                                \
            p->full = 0;                                                                                 \
            kind##_cond_notify(&p->cond);                                                                \
            CHECK(pthread_mutex_unlock(&p->cond.mutex));                                                 \
        }                                                                                                \
        return NULL;                                                                                     \
    }                                                                                                    \
                                                                                                         \
    static uint64_t kind##_handoffs(uint64_t n, tally *seen)                                             \
    {                                                                                                    \
        kind##_pair p;                                                                                   \
        pthread_t consumer;                                                                              \
        uint64_t i, t0, t1;                                                                              \
        memset(&p, 0, sizeof p);                                                                         \
        kind##_cond_init(&p.cond);                                                                       \
        p.seen.n = n;                                                                                    \
        t0 = versus_now_ns();                                                                            \
        CHECK(pthread_create(&consumer, NULL, kind##_consumer, &p));                                     \
        for (i = 0; i < n; i++) {                                                                        \
            CHECK(pthread_mutex_lock(&p.cond.mutex));                                                    \
            while (p.full)                                                                               \
                kind##_cond_wait(&p.cond);                                                               \
            p.box = i;                                                                                   \
            p.full = 1;                                                                                  \
            kind##_cond_notify(&p.cond);                                                                 \
            CHECK(pthread_mutex_unlock(&p.cond.mutex));                                                  \
        }                                                                                                \
        CHECK(pthread_join(consumer, NULL));                                                             \
        t1 = versus_now_ns();                                                                            \
        kind##_cond_destroy(&p.cond);                                                                    \
        *seen = p.seen;                                                                                  \
        return t1 - t0;                                                                                  \
    }

LOCK_PAIR(sem)
LOCK_PAIR(mc)
COND_PAIR(pt)
COND_PAIR(emu)

/* ------------------------------------------------------------------ the cases */

typedef struct {
    uint64_t (*run)(uint64_t n, tally *seen); /* the pair: returns its ns */
} pair;

static const pair sem_pair_ = {sem_handoffs}, mc_pair_ = {mc_handoffs}, pt_pair_ = {pt_handoffs},
                  emu_pair_ = {emu_handoffs};

static uint64_t cpu_ns(const struct rusage *r)
{
    return (uint64_t)(r->ru_utime.tv_sec + r->ru_stime.tv_sec) * 1000000000ULL +
           (uint64_t)(r->ru_utime.tv_usec + r->ru_stime.tv_usec) * 1000ULL;
}

static int handoffs(versus_ctx *ctx)
{
    const pair *variant = (const pair *)ctx->arg;
    uint64_t n = ctx->inner, ns;
    struct rusage before, after;
    tally seen;
    getrusage(RUSAGE_SELF, &before);
    ns = variant->run(n, &seen);
    getrusage(RUSAGE_SELF, &after);
    if (seen.count != n || seen.out_of_order != 0)
        return versus_fail(ctx, "%" PRIu64 " items sent, %" PRIu64 " received, %" PRIu64 " out of order", n,
                           seen.count, seen.out_of_order);
    versus_metric(ctx, "handoffs_per_s", (double)n * 1e9 / (double)(ns ? ns : 1), "1/s");
    versus_metric(ctx, "voluntary_switches_per_handoff", (double)(after.ru_nvcsw - before.ru_nvcsw) / (double)n,
                  "1");
    versus_metric(ctx, "cpu_ns_per_handoff", (double)(cpu_ns(&after) - cpu_ns(&before)) / (double)n, "ns");
    versus_check_u64(ctx, seen.count);
    return versus_sample(ctx, (int64_t)ns, n);
}

int main(void)
{
    const versus_case cases[] = {
        VERSUS_MANUAL_ARG("lock_sem", handoffs, &sem_pair_),
        VERSUS_MANUAL_ARG("lock_mutex_cond", handoffs, &mc_pair_),
        VERSUS_MANUAL_ARG("cond_pthread", handoffs, &pt_pair_),
        VERSUS_MANUAL_ARG("cond_emulated", handoffs, &emu_pair_),
    };
    return versus_run(cases, sizeof cases / sizeof cases[0]);
}
