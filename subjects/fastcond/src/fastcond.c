/*
 * fastcond: a native threading.Condition for CPython.
 *
 * Design (see README.md): an emulated condition variable made of a
 * pthread mutex and one POSIX semaphore per waiter.
 *
 *   wait():   append a waiter record (on the C stack) to a FIFO list under
 *             the mutex, release the user lock, block on the waiter's
 *             sem_t with the GIL released, then take the mutex again and
 *             settle the outcome, and re-acquire the user lock.
 *   notify(n): under the mutex, pop up to n waiters from the head, mark
 *             each one "notified" and sem_post its semaphore.
 *
 * A waiter is "notified" exactly when a notifier unlinked it, and the flag
 * is only read or written under the mutex.  So a waiter whose timeout (or
 * signal) races with notify sees notified=1 under the mutex and reports
 * success instead of swallowing the wakeup; a waiter that was never
 * notified unlinks itself, so no later notify is spent on it.  A per-waiter
 * semaphore means a thread that re-enters wait() cannot steal a post meant
 * for an older waiter.  If a notified waiter leaves with an exception
 * (KeyboardInterrupt), its wakeup is handed on to the next waiter.
 *
 * The notifier posts while holding the mutex and the waiter always takes
 * the mutex before its frame (and sem_t) goes away, so sem_post never
 * touches a dead semaphore.
 *
 * Before blocking, and before re-taking the GIL, a waiter spins briefly
 * (bounded, adaptive, off while the CPUs are busy): see "bounded spinning".
 *
 * The waiter list, notify and the settling of a wait's outcome are plain C
 * in emucond.h, which experiments/condvar/c/condvar.c also includes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <pythread.h>
#include <pthread.h>
#include <semaphore.h>
#include <errno.h>
#include <time.h>
#include <math.h>
#include <sched.h>

#if defined(__GLIBC__) && defined(__GLIBC_PREREQ)
#  if __GLIBC_PREREQ(2, 30)
#    define FC_HAVE_CLOCKWAIT 1   /* sem_clockwait: immune to clock steps */
#  endif
#endif

#if PY_VERSION_HEX >= 0x03080000 && !defined(PYPY_VERSION)
#  define FC_FASTCALL 1
#endif

#if defined(FC_FASTCALL) && PY_VERSION_HEX < 0x03090000
#  define PyObject_Vectorcall _PyObject_Vectorcall
#endif
#ifndef Py_XSETREF
#  define Py_XSETREF(op, op2)                       \
    do {                                            \
        PyObject *_py_tmp = (PyObject *)(op);       \
        (op) = (op2);                               \
        Py_XDECREF(_py_tmp);                        \
    } while (0)
#endif

#if PY_VERSION_HEX < 0x03090000 || defined(PYPY_VERSION)
static PyObject *
fc_call0(PyObject *f)
{
    return PyObject_CallFunctionObjArgs(f, NULL);
}
static PyObject *
fc_call1(PyObject *f, PyObject *a)
{
    return PyObject_CallFunctionObjArgs(f, a, NULL);
}
#else
#  define fc_call0(f) PyObject_CallNoArgs(f)
#  define fc_call1(f, a) PyObject_CallOneArg((f), (a))
#endif

static unsigned long fc_gil_epoch;       /* bumped after each GIL drop in wait */

/* a waiter's epoch: fc_gil_epoch when it was posted (see spin_for_gil) */
#define EMUCOND_ON_POST(w) \
    ((w)->epoch = __atomic_load_n(&fc_gil_epoch, __ATOMIC_RELAXED))
#include "emucond.h"

typedef struct {
    PyObject_HEAD
    PyObject *lock;
    PyObject *acquire;          /* bound methods of lock, cached */
    PyObject *release;
    PyObject *release_save;     /* NULL when the lock lacks the RLock protocol */
    PyObject *acquire_restore;
    PyObject *is_owned;
    PyObject *locked;           /* used for the ownership check of plain locks */
    PyObject *dict;
    PyObject *weakreflist;
    emucond ec;                 /* the waiters: mutex, list, count */
    int spin_pre, spin_post;    /* adaptive spin budgets, ns */
    unsigned int nspins;
} CondObject;

static PyTypeObject CondType;
static PyObject *default_lock_factory;   /* _thread.RLock */
#ifdef PYPY_VERSION
static PyObject *pypy_tick;   /* a Python-level no-op: runs PyPy's pending signal handlers */
#endif
static PyObject *saved_condition;        /* threading.Condition before patch() */

/* ---- helpers ---- */

static double
mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
add_seconds(struct timespec *ts, double secs)
{
    double whole = floor(secs);
    long ns = (long)((secs - whole) * 1e9);
    ts->tv_sec += (time_t)whole;
    ts->tv_nsec += ns;
    if (ts->tv_nsec >= 1000000000L) {
        ts->tv_sec += 1;
        ts->tv_nsec -= 1000000000L;
    }
}

/* ---- bounded spinning (see README, Benchmark) ----
 * A handoff used to cost ~3 sleeps: the waiter slept on its semaphore, woke,
 * then slept again on the GIL still held by the notifier.  So a waiter
 * (without the GIL) first polls its semaphore for a short adaptive time,
 * and once posted polls fc_gil_epoch, which every fastcond waiter bumps
 * right after dropping the GIL, so that it takes the GIL when it is likely
 * free.  Each spin polls for an adaptive budget of at most 50 us (plus the
 * last yield); a post or GIL drop it misses only costs the old sleep. */

static int fc_spin_pre_max = 50000, fc_spin_post_max = 50000;   /* ns */
static int fc_spin_main = 1;   /* 0: main thread doesn't pre-spin; 1: it
                                  re-checks signals (with the GIL) after */
static unsigned long fc_main_ident;
#define FC_SPIN_MIN 2000
#define FC_RECHECK (-1)

static long long
mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#  define fc_pause() __builtin_ia32_pause()
#elif defined(__aarch64__)
#  define fc_pause() __asm__ __volatile__("yield" ::: "memory")
#else
#  define fc_pause() __asm__ __volatile__("" ::: "memory")
#endif

/* The spin loops pause and sched_yield: the scheduler often puts a waker
 * and its wakee on one CPU, where only a yield lets the notifier run.  But
 * a yield that took long means other work wants this CPU (another
 * process): yielding then costs a whole time slice per handoff, far worse
 * than sleeping, whose wakeup preempts.  So a slow yield ends the spin and
 * turns spinning off process-wide for a backoff (10 ms, doubling up to 1 s
 * while it recurs, halved by each spin whose yields were all quick). */
#define FC_YIELD_SLOW 500000LL   /* below a time slice (>= 0.75 ms) */
#define FC_BACKOFF_MIN 10000000LL
#define FC_BACKOFF_MAX 1000000000LL
static long long fc_nospin_until, fc_backoff = FC_BACKOFF_MIN;

static int
spin_allowed(long long now)
{
    return now >= __atomic_load_n(&fc_nospin_until, __ATOMIC_RELAXED);
}

/* yields; -1 if the yield was slow (and the backoff is started) */
static int
spin_yield(long long *now)
{
    long long t, b;
    sched_yield();
    t = mono_ns();
    if (t - *now > FC_YIELD_SLOW) {
        b = __atomic_load_n(&fc_backoff, __ATOMIC_RELAXED);
        __atomic_store_n(&fc_nospin_until, t + b, __ATOMIC_RELAXED);
        __atomic_store_n(&fc_backoff, b >= FC_BACKOFF_MAX / 2 ? FC_BACKOFF_MAX : 2 * b,
                         __ATOMIC_RELAXED);
        *now = t;
        return -1;
    }
    *now = t;
    return 0;
}

/* a spin that yielded, always quickly, and succeeded */
static void
spin_went_well(int yielded)
{
    long long b = __atomic_load_n(&fc_backoff, __ATOMIC_RELAXED);
    if (yielded && b > FC_BACKOFF_MIN)
        __atomic_store_n(&fc_backoff, b / 2 < FC_BACKOFF_MIN ? FC_BACKOFF_MIN : b / 2,
                         __ATOMIC_RELAXED);
}

/* grow on success, halve on failure, within [FC_SPIN_MIN, max] */
static void
spin_adapt(int *budget, int max, int ok, long long spent)
{
    int b = __atomic_load_n(budget, __ATOMIC_RELAXED);
    if (ok) {
        long long nb = 2 * (long long)b;
        if (nb < 4 * spent)
            nb = 4 * spent;
        b = nb > max ? max : (int)nb;
    }
    else
        b = b / 2 < FC_SPIN_MIN ? FC_SPIN_MIN : b / 2;
    __atomic_store_n(budget, b, __ATOMIC_RELAXED);
}

static int
spin_budget(CondObject *self, int *budget, int max)
{
    if (max <= 0)
        return 0;
    /* every 32nd spin probes with the full budget so a small one can grow */
    if ((__atomic_add_fetch(&self->nspins, 1, __ATOMIC_RELAXED) & 31) == 0)
        return max;
    return __atomic_load_n(budget, __ATOMIC_RELAXED);
}

/* No GIL.  Polls sem for up to the budget (and the deadline): 1 if taken,
   0 if spun in vain, -1 if it didn't spin. */
static int
spin_trywait(CondObject *self, sem_t *sem, long long deadline_ns)
{
    long long t0, now;
    int budget = spin_budget(self, &self->spin_pre, fc_spin_pre_max);
    if (budget <= 0)
        return -1;
    t0 = now = mono_ns();
    if (!spin_allowed(t0))
        return -1;
    if (deadline_ns && deadline_ns - t0 < budget)
        budget = (int)(deadline_ns - t0);
    while (now - t0 < budget) {
        if (sem_trywait(sem) == 0) {
            spin_adapt(&self->spin_pre, fc_spin_pre_max, 1, mono_ns() - t0);
            spin_went_well(now != t0);
            return 1;
        }
        fc_pause();
        if (spin_yield(&now) < 0)
            return sem_trywait(sem) == 0;
    }
    if (!deadline_ns || now < deadline_ns)
        spin_adapt(&self->spin_pre, fc_spin_pre_max, 0, 0);
    return 0;
}

/* No GIL, posted.  Waits (bounded) until some fastcond waiter has dropped
   the GIL since the post, so that taking it won't sleep. */
static void
spin_for_gil(CondObject *self, unsigned long epoch)
{
    long long t0, now;
    int budget = spin_budget(self, &self->spin_post, fc_spin_post_max);
    if (budget <= 0 || __atomic_load_n(&fc_gil_epoch, __ATOMIC_ACQUIRE) != epoch)
        return;
    t0 = now = mono_ns();
    if (!spin_allowed(t0))
        return;
    while (now - t0 < budget) {
        if (__atomic_load_n(&fc_gil_epoch, __ATOMIC_ACQUIRE) != epoch) {
            spin_adapt(&self->spin_post, fc_spin_post_max, 1, mono_ns() - t0);
            spin_went_well(now != t0);
            return;
        }
        fc_pause();
        if (spin_yield(&now) < 0)
            return;
    }
    spin_adapt(&self->spin_post, fc_spin_post_max, 0, 0);
}

#define FC_DROPPED_GIL() __atomic_add_fetch(&fc_gil_epoch, 1, __ATOMIC_RELEASE)

/* Without the GIL (bumping fc_gil_epoch): spin, then block with `block`
   unless the spin was in vain on the main thread (FC_RECHECK). */
#define FC_SPIN_THEN(block)                                             \
    Py_BEGIN_ALLOW_THREADS                                              \
    FC_DROPPED_GIL();                                                   \
    sp = spin ? spin_trywait(self, sem, dl_ns) : -1;                    \
    if (sp == 1)                                                        \
        err = 0;                                                        \
    else if (sp == 0 && spin == 2)                                      \
        err = FC_RECHECK;                                               \
    else                                                                \
        err = (block) == 0 ? 0 : errno;                                 \
    if (err == 0)                                                       \
        spin_for_gil(self, w->epoch);                                   \
    Py_END_ALLOW_THREADS

/* Blocks until posted or the monotonic deadline; returns 0, an errno, or
   FC_RECHECK (spun in vain on the main thread, where a signal gives no
   EINTR while spinning: check signals, call again with spin=0).
   spin: 0 no pre-spin, 1 pre-spin, 2 pre-spin + recheck. */
static int
sem_wait_until(CondObject *self, emucond_waiter *w, int infinite, double deadline,
               int spin)
{
    sem_t *sem = &w->sem;
    int r, err, sp;
    long long dl_ns = 0;
    if (infinite) {
        FC_SPIN_THEN(sem_wait(sem))
        return err;
    }
    double remaining = deadline - mono_now();
    if (remaining <= 0) {
        r = sem_trywait(sem);
        return r == 0 ? 0 : (errno == EAGAIN ? ETIMEDOUT : errno);
    }
    struct timespec abs;
#ifdef FC_HAVE_CLOCKWAIT
    clock_gettime(CLOCK_MONOTONIC, &abs);
    dl_ns = (long long)abs.tv_sec * 1000000000LL + abs.tv_nsec
            + (long long)(remaining * 1e9);
    add_seconds(&abs, remaining);
    FC_SPIN_THEN(sem_clockwait(sem, CLOCK_MONOTONIC, &abs))
#else
    /* sem_timedwait takes CLOCK_REALTIME: recomputed each call, so a clock
       step can stretch or shorten one wait but the loop corrects it. */
    dl_ns = mono_ns() + (long long)(remaining * 1e9);
    clock_gettime(CLOCK_REALTIME, &abs);
    add_seconds(&abs, remaining);
    FC_SPIN_THEN(sem_timedwait(sem, &abs))
#endif
    return err;
}

/* 1 owned, 0 not, -1 error */
static int
cond_is_owned_impl(CondObject *self)
{
    PyObject *r;
    int v;
    if (self->lock == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Condition not initialized");
        return -1;
    }
    if (self->is_owned) {
        r = fc_call0(self->is_owned);
        if (r == NULL)
            return -1;
        v = PyObject_IsTrue(r);
        Py_DECREF(r);
        return v;
    }
    if (self->locked) {
        /* a plain lock can't tell who holds it: held counts as owned */
        r = fc_call0(self->locked);
        if (r == NULL)
            return -1;
        v = PyObject_IsTrue(r);
        Py_DECREF(r);
        return v;
    }
    r = fc_call1(self->acquire, Py_False);
    if (r == NULL)
        return -1;
    v = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (v < 0)
        return -1;
    if (v) {
        r = fc_call0(self->release);
        if (r == NULL)
            return -1;
        Py_DECREF(r);
        return 0;
    }
    return 1;
}

static int
cond_setlock(CondObject *self, PyObject *lock)
{
    PyObject *acq = NULL, *rel = NULL, *rs = NULL, *ar = NULL, *io = NULL,
             *lk = NULL;

    if (lock == NULL || lock == Py_None) {
        lock = fc_call0(default_lock_factory);
        if (lock == NULL)
            return -1;
    }
    else
        Py_INCREF(lock);

    acq = PyObject_GetAttrString(lock, "acquire");
    if (acq == NULL)
        goto fail;
    rel = PyObject_GetAttrString(lock, "release");
    if (rel == NULL)
        goto fail;
#define OPTIONAL_ATTR(var, name)                                    \
    var = PyObject_GetAttrString(lock, name);                       \
    if (var == NULL) {                                              \
        if (!PyErr_ExceptionMatches(PyExc_AttributeError))          \
            goto fail;                                              \
        PyErr_Clear();                                              \
    }
    OPTIONAL_ATTR(rs, "_release_save")
    OPTIONAL_ATTR(ar, "_acquire_restore")
    OPTIONAL_ATTR(io, "_is_owned")
    if (io == NULL) {
        /* only trust locked() on the stdlib's own Lock type */
        PyObject *mod = PyObject_GetAttrString((PyObject *)Py_TYPE(lock),
                                               "__module__");
        if (mod == NULL)
            PyErr_Clear();
        else {
            if (PyUnicode_Check(mod) &&
                (PyUnicode_CompareWithASCIIString(mod, "_thread") == 0 ||
                 PyUnicode_CompareWithASCIIString(mod, "thread") == 0)) {
                OPTIONAL_ATTR(lk, "locked")
            }
            Py_DECREF(mod);
        }
    }
#undef OPTIONAL_ATTR
    if ((rs == NULL) != (ar == NULL)) {
        Py_CLEAR(rs);
        Py_CLEAR(ar);
    }
    Py_XSETREF(self->lock, lock);
    Py_XSETREF(self->acquire, acq);
    Py_XSETREF(self->release, rel);
    Py_XSETREF(self->release_save, rs);
    Py_XSETREF(self->acquire_restore, ar);
    Py_XSETREF(self->is_owned, io);
    Py_XSETREF(self->locked, lk);
    return 0;
fail:
    Py_DECREF(lock);
    Py_XDECREF(acq);
    Py_XDECREF(rel);
    Py_XDECREF(rs);
    Py_XDECREF(ar);
    Py_XDECREF(io);
    Py_XDECREF(lk);
    return -1;
}

/* ---- the wait itself ---- */

/* timeout: infinite when `infinite`, else secs (<= 0 means don't block). */
static PyObject *
cond_wait_impl(CondObject *self, int infinite, double secs)
{
    emucond_waiter w;
    PyObject *saved, *r;
    int own, got = 0, failed = 0, spin;
    double deadline = 0;

    own = cond_is_owned_impl(self);
    if (own < 0)
        return NULL;
    if (!own) {
        PyErr_SetString(PyExc_RuntimeError, "cannot wait on un-acquired lock");
        return NULL;
    }
    if (!infinite && secs > 0)
        deadline = mono_now() + secs;

    if (emucond_enter(&self->ec, &w) != 0)
        return PyErr_SetFromErrno(PyExc_OSError);

    if (self->release_save)
        saved = fc_call0(self->release_save);
    else {
        saved = fc_call0(self->release);
    }
    if (saved == NULL) {
        /* hands on a wakeup that already came */
        emucond_leave(&self->ec, &w, 0, 1);
        return NULL;
    }

    if (fc_spin_pre_max <= 0)
        spin = 0;
    else if (PyThread_get_thread_ident() != fc_main_ident)
        spin = 1;
    else
        spin = fc_spin_main ? 2 : 0;
    for (;;) {
        int err = sem_wait_until(self, &w, infinite, deadline, spin);
        if (err == 0) {
            got = 1;
            break;
        }
        if (err == EINTR || err == FC_RECHECK) {
            /* a signal may have come while spinning, when no EINTR can */
            if (spin == 2)
                spin = 0;
            if (PyErr_CheckSignals() < 0) {
                failed = 1;
                break;
            }
#ifdef PYPY_VERSION
            /* cpyext's PyErr_CheckSignals doesn't run handlers; running
               any bytecode does */
            r = fc_call0(pypy_tick);
            if (r == NULL) {
                failed = 1;
                break;
            }
            Py_DECREF(r);
#endif
            continue;
        }
        if (err == ETIMEDOUT)
            break;
        errno = err;
        PyErr_SetFromErrno(PyExc_OSError);
        failed = 1;
        break;
    }

    /* a notify that raced with the timeout/signal counts (or is handed on
       when leaving with an exception) */
    got = emucond_leave(&self->ec, &w, got, failed);

    /* re-acquire the user lock, keeping any pending exception */
    {
        PyObject *et, *ev, *tb;
        if (failed)
            PyErr_Fetch(&et, &ev, &tb);
        if (self->acquire_restore)
            r = fc_call1(self->acquire_restore, saved);
        else
            r = fc_call0(self->acquire);
        Py_DECREF(saved);
        if (failed) {
            Py_XDECREF(r);
            if (r == NULL)
                PyErr_Clear();
            PyErr_Restore(et, ev, tb);
            return NULL;
        }
        if (r == NULL)
            return NULL;
        Py_DECREF(r);
    }
    return PyBool_FromLong(got);
}

/* None -> infinite; returns -1 on error */
static int
parse_timeout(PyObject *timeout, int *infinite, double *secs)
{
    if (timeout == NULL || timeout == Py_None) {
        *infinite = 1;
        *secs = 0;
        return 0;
    }
    double t = PyFloat_AsDouble(timeout);
    if (t == -1.0 && PyErr_Occurred())
        return -1;
    if (isnan(t)) {
        PyErr_SetString(PyExc_ValueError, "Invalid value NaN (not a number)");
        return -1;
    }
    /* beyond ~31 years: treat as forever rather than overflow timespec */
    if (t > 1e9) {
        *infinite = 1;
        *secs = 0;
        return 0;
    }
    *infinite = 0;
    *secs = t;
    return 0;
}

static PyObject *
cond_wait_obj(CondObject *self, PyObject *timeout)
{
    int infinite;
    double secs;
    if (parse_timeout(timeout, &infinite, &secs) < 0)
        return NULL;
    return cond_wait_impl(self, infinite, secs);
}

static PyObject *
cond_wait_for_obj(CondObject *self, PyObject *predicate, PyObject *timeout)
{
    int infinite;
    double waittime, endtime = 0;
    int have_end = 0;
    PyObject *result;

    if (parse_timeout(timeout, &infinite, &waittime) < 0)
        return NULL;
    result = fc_call0(predicate);
    if (result == NULL)
        return NULL;
    for (;;) {
        int truth = PyObject_IsTrue(result);
        PyObject *r;
        if (truth < 0) {
            Py_DECREF(result);
            return NULL;
        }
        if (truth)
            break;
        if (!infinite) {
            if (!have_end) {
                endtime = mono_now() + waittime;
                have_end = 1;
            }
            else {
                waittime = endtime - mono_now();
                if (waittime <= 0)
                    break;
            }
        }
        if (Py_TYPE(self) == &CondType)
            r = cond_wait_impl(self, infinite, waittime);
        else if (infinite)
            r = PyObject_CallMethod((PyObject *)self, "wait", NULL);
        else
            r = PyObject_CallMethod((PyObject *)self, "wait", "d", waittime);
        if (r == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        Py_DECREF(r);
        Py_DECREF(result);
        result = fc_call0(predicate);
        if (result == NULL)
            return NULL;
    }
    return result;
}

static PyObject *
cond_notify_n(CondObject *self, Py_ssize_t n)
{
    int own = cond_is_owned_impl(self);
    if (own < 0)
        return NULL;
    if (!own) {
        PyErr_SetString(PyExc_RuntimeError,
                        "cannot notify on un-acquired lock");
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n must be >= 0");
        return NULL;
    }
    emucond_notify(&self->ec, n);
    Py_RETURN_NONE;
}

static int
check_init(CondObject *self)
{
    if (self->lock == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Condition not initialized");
        return -1;
    }
    return 0;
}

/* ---- argument handling: fastcall on 3.8+, tuples before ---- */

#ifdef FC_FASTCALL
#define FC_METH_KW (METH_FASTCALL | METH_KEYWORDS)
#define FC_ARGS PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames

/* Fills out[0..n) from positional args and keywords named in names. */
static int
parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
           PyObject *kwnames, const char *const *names, int n, int required,
           PyObject **out)
{
    int i;
    Py_ssize_t k, nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)",
                     fname, n, nargs + nkw);
        return -1;
    }
    for (i = 0; i < n; i++)
        out[i] = i < nargs ? args[i] : NULL;
    for (k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        for (i = 0; i < n; i++)
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0)
                break;
        if (i == n) {
            PyErr_Format(PyExc_TypeError,
                         "%s() got an unexpected keyword argument '%U'", fname, key);
            return -1;
        }
        if (out[i] != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%s() got multiple values for argument '%s'", fname, names[i]);
            return -1;
        }
        out[i] = args[nargs + k];
    }
    for (i = 0; i < required; i++)
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%s() missing required argument '%s'", fname, names[i]);
            return -1;
        }
    return 0;
}

static PyObject *
cond_acquire(CondObject *self, FC_ARGS)
{
    if (check_init(self) < 0)
        return NULL;
    return PyObject_Vectorcall(self->acquire, args, nargs, kwnames);
}

static PyObject *
cond_release(CondObject *self, FC_ARGS)
{
    if (check_init(self) < 0)
        return NULL;
    return PyObject_Vectorcall(self->release, args, nargs, kwnames);
}

static PyObject *
cond_wait(CondObject *self, FC_ARGS)
{
    static const char *const names[] = {"timeout"};
    PyObject *a[1];
    if (nargs == 0 && kwnames == NULL)
        return cond_wait_impl(self, 1, 0);
    if (parse_args("wait", args, nargs, kwnames, names, 1, 0, a) < 0)
        return NULL;
    return cond_wait_obj(self, a[0]);
}

static PyObject *
cond_wait_for(CondObject *self, FC_ARGS)
{
    static const char *const names[] = {"predicate", "timeout"};
    PyObject *a[2];
    if (parse_args("wait_for", args, nargs, kwnames, names, 2, 1, a) < 0)
        return NULL;
    return cond_wait_for_obj(self, a[0], a[1]);
}

static PyObject *
cond_notify(CondObject *self, FC_ARGS)
{
    static const char *const names[] = {"n"};
    PyObject *a[1];
    Py_ssize_t n = 1;
    if (nargs || kwnames) {
        if (parse_args("notify", args, nargs, kwnames, names, 1, 0, a) < 0)
            return NULL;
        n = PyNumber_AsSsize_t(a[0], PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred())
            return NULL;
    }
    return cond_notify_n(self, n);
}

#else  /* tuple calling convention */
#define FC_METH_KW (METH_VARARGS | METH_KEYWORDS)
#define FC_ARGS PyObject *args, PyObject *kwargs

static PyObject *
cond_acquire(CondObject *self, FC_ARGS)
{
    if (check_init(self) < 0)
        return NULL;
    return PyObject_Call(self->acquire, args, kwargs);
}

static PyObject *
cond_release(CondObject *self, FC_ARGS)
{
    if (check_init(self) < 0)
        return NULL;
    return PyObject_Call(self->release, args, kwargs);
}

static PyObject *
cond_wait(CondObject *self, FC_ARGS)
{
    static char *kw[] = {"timeout", NULL};
    PyObject *timeout = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:wait", kw, &timeout))
        return NULL;
    return cond_wait_obj(self, timeout);
}

static PyObject *
cond_wait_for(CondObject *self, FC_ARGS)
{
    static char *kw[] = {"predicate", "timeout", NULL};
    PyObject *pred, *timeout = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:wait_for", kw,
                                     &pred, &timeout))
        return NULL;
    return cond_wait_for_obj(self, pred, timeout);
}

static PyObject *
cond_notify(CondObject *self, FC_ARGS)
{
    static char *kw[] = {"n", NULL};
    Py_ssize_t n = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|n:notify", kw, &n))
        return NULL;
    return cond_notify_n(self, n);
}
#endif

static PyObject *
cond_notify_all(CondObject *self, PyObject *unused)
{
    return cond_notify_n(self, PY_SSIZE_T_MAX);
}

static PyObject *
cond_notifyAll(CondObject *self, PyObject *unused)
{
    if (PyErr_WarnEx(PyExc_DeprecationWarning,
                     "notifyAll() is deprecated, use notify_all() instead", 1) < 0)
        return NULL;
    return cond_notify_n(self, PY_SSIZE_T_MAX);
}

static PyObject *
cond_enter(CondObject *self, PyObject *unused)
{
    if (check_init(self) < 0)
        return NULL;
    return fc_call0(self->acquire);
}

static PyObject *
cond_exit(CondObject *self, PyObject *args)
{
    PyObject *r;
    if (check_init(self) < 0)
        return NULL;
    r = fc_call0(self->release);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

static PyObject *
cond__is_owned(CondObject *self, PyObject *unused)
{
    int v = cond_is_owned_impl(self);
    if (v < 0)
        return NULL;
    return PyBool_FromLong(v);
}

static PyObject *
cond__release_save(CondObject *self, PyObject *unused)
{
    PyObject *r;
    if (check_init(self) < 0)
        return NULL;
    if (self->release_save)
        return fc_call0(self->release_save);
    r = fc_call0(self->release);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

static PyObject *
cond__acquire_restore(CondObject *self, PyObject *state)
{
    PyObject *r;
    if (check_init(self) < 0)
        return NULL;
    if (self->acquire_restore)
        return fc_call1(self->acquire_restore, state);
    r = fc_call0(self->acquire);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    Py_RETURN_NONE;
}

static PyObject *
cond__at_fork_reinit(CondObject *self, PyObject *unused)
{
    /* in the child only this thread exists: forget the other waiters */
    PyObject *r;
    if (check_init(self) < 0)
        return NULL;
    r = PyObject_CallMethod(self->lock, "_at_fork_reinit", NULL);
    if (r == NULL)
        return NULL;
    Py_DECREF(r);
    emucond_init(&self->ec);
    Py_RETURN_NONE;
}

static PyObject *
cond_get_lock(CondObject *self, void *closure)
{
    if (check_init(self) < 0)
        return NULL;
    Py_INCREF(self->lock);
    return self->lock;
}

static PyObject *
cond_get_nwaiters(CondObject *self, void *closure)
{
    Py_ssize_t n;
    pthread_mutex_lock(&self->ec.mutex);
    n = self->ec.nwaiters;
    pthread_mutex_unlock(&self->ec.mutex);
    return PyLong_FromSsize_t(n);
}

static PyObject *
cond_repr(CondObject *self)
{
    Py_ssize_t n;
    if (self->lock == NULL)
        return PyUnicode_FromString("<fastcond.Condition (uninitialized)>");
    pthread_mutex_lock(&self->ec.mutex);
    n = self->ec.nwaiters;
    pthread_mutex_unlock(&self->ec.mutex);
    return PyUnicode_FromFormat("<Condition(%R, %zd)>", self->lock, n);
}

/* ---- object lifecycle ---- */

static PyObject *
cond_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    CondObject *self = (CondObject *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    if ((errno = emucond_init(&self->ec)) != 0) {
        Py_DECREF(self);
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    self->spin_pre = fc_spin_pre_max > 0 ? fc_spin_pre_max : FC_SPIN_MIN;
    self->spin_post = fc_spin_post_max > 0 ? fc_spin_post_max : FC_SPIN_MIN;
    return (PyObject *)self;
}

static int
cond_init(CondObject *self, PyObject *args, PyObject *kwds)
{
    static char *kw[] = {"lock", NULL};
    PyObject *lock = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Condition", kw, &lock))
        return -1;
    return cond_setlock(self, lock);
}

static int
cond_traverse(CondObject *self, visitproc visit, void *arg)
{
    Py_VISIT(self->lock);
    Py_VISIT(self->acquire);
    Py_VISIT(self->release);
    Py_VISIT(self->release_save);
    Py_VISIT(self->acquire_restore);
    Py_VISIT(self->is_owned);
    Py_VISIT(self->locked);
    Py_VISIT(self->dict);
    return 0;
}

static int
cond_clear(CondObject *self)
{
    Py_CLEAR(self->lock);
    Py_CLEAR(self->acquire);
    Py_CLEAR(self->release);
    Py_CLEAR(self->release_save);
    Py_CLEAR(self->acquire_restore);
    Py_CLEAR(self->is_owned);
    Py_CLEAR(self->locked);
    Py_CLEAR(self->dict);
    return 0;
}

static void
cond_dealloc(CondObject *self)
{
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL)
        PyObject_ClearWeakRefs((PyObject *)self);
    cond_clear(self);
    emucond_destroy(&self->ec);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef cond_methods[] = {
    {"acquire", (PyCFunction)(void (*)(void))cond_acquire, FC_METH_KW,
     "Acquire the underlying lock."},
    {"release", (PyCFunction)(void (*)(void))cond_release, FC_METH_KW,
     "Release the underlying lock."},
    {"wait", (PyCFunction)(void (*)(void))cond_wait, FC_METH_KW,
     "wait(timeout=None) -> bool: block until notified or timed out."},
    {"wait_for", (PyCFunction)(void (*)(void))cond_wait_for, FC_METH_KW,
     "wait_for(predicate, timeout=None): wait until predicate() is true."},
    {"notify", (PyCFunction)(void (*)(void))cond_notify, FC_METH_KW,
     "notify(n=1): wake up to n waiting threads."},
    {"notify_all", (PyCFunction)cond_notify_all, METH_NOARGS,
     "Wake all waiting threads."},
    {"notifyAll", (PyCFunction)cond_notifyAll, METH_NOARGS,
     "Deprecated alias of notify_all()."},
    {"__enter__", (PyCFunction)cond_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)cond_exit, METH_VARARGS, NULL},
    {"_is_owned", (PyCFunction)cond__is_owned, METH_NOARGS, NULL},
    {"_release_save", (PyCFunction)cond__release_save, METH_NOARGS, NULL},
    {"_acquire_restore", (PyCFunction)cond__acquire_restore, METH_O, NULL},
    {"_at_fork_reinit", (PyCFunction)cond__at_fork_reinit, METH_NOARGS, NULL},
    {NULL}
};

static PyGetSetDef cond_getset[] = {
    {"_lock", (getter)cond_get_lock, NULL, "the underlying lock", NULL},
    {"_nwaiters", (getter)cond_get_nwaiters, NULL, "threads in wait()", NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL}
};

static PyTypeObject CondType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    "fastcond.Condition",                       /* tp_name */
    sizeof(CondObject),                         /* tp_basicsize */
};

/* ---- module ---- */

static PyObject *
fc_patch(PyObject *mod, PyObject *unused)
{
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *cur;
    if (threading == NULL)
        return NULL;
    cur = PyObject_GetAttrString(threading, "Condition");
    if (cur == NULL) {
        Py_DECREF(threading);
        return NULL;
    }
    if (cur != (PyObject *)&CondType) {
        Py_XSETREF(saved_condition, cur);
        cur = NULL;
    }
    Py_XDECREF(cur);
    if (PyObject_SetAttrString(threading, "Condition", (PyObject *)&CondType) < 0) {
        Py_DECREF(threading);
        return NULL;
    }
    Py_DECREF(threading);
    Py_RETURN_NONE;
}

static PyObject *
fc_unpatch(PyObject *mod, PyObject *unused)
{
    PyObject *threading;
    if (saved_condition == NULL)
        Py_RETURN_NONE;
    threading = PyImport_ImportModule("threading");
    if (threading == NULL)
        return NULL;
    if (PyObject_SetAttrString(threading, "Condition", saved_condition) < 0) {
        Py_DECREF(threading);
        return NULL;
    }
    Py_DECREF(threading);
    Py_CLEAR(saved_condition);
    Py_RETURN_NONE;
}

static PyObject *
fc_is_patched(PyObject *mod, PyObject *unused)
{
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *cur;
    int v;
    if (threading == NULL)
        return NULL;
    cur = PyObject_GetAttrString(threading, "Condition");
    Py_DECREF(threading);
    if (cur == NULL)
        return NULL;
    v = cur == (PyObject *)&CondType;
    Py_DECREF(cur);
    return PyBool_FromLong(v);
}

/* the thread that runs signal handlers: it must not miss a signal by
   spinning where no EINTR can reach it */
static int
fc_set_main_ident(void)
{
    PyObject *threading, *mt, *ident;
    threading = PyImport_ImportModule("threading");
    if (threading == NULL)
        return -1;
    mt = PyObject_CallMethod(threading, "main_thread", NULL);
    Py_DECREF(threading);
    if (mt == NULL)
        return -1;
    ident = PyObject_GetAttrString(mt, "ident");
    Py_DECREF(mt);
    if (ident == NULL)
        return -1;
    fc_main_ident = PyLong_AsUnsignedLong(ident);
    Py_DECREF(ident);
    if (fc_main_ident == (unsigned long)-1 && PyErr_Occurred())
        return -1;
    return 0;
}

static PyObject *
fc_after_fork(PyObject *mod, PyObject *unused)
{
    if (fc_set_main_ident() < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
fc_spin_config(PyObject *mod, PyObject *args)
{
    int pre = fc_spin_pre_max, post = fc_spin_post_max, main = fc_spin_main;
    if (!PyArg_ParseTuple(args, "|iii:_spin_config", &pre, &post, &main))
        return NULL;
    fc_spin_pre_max = pre;
    fc_spin_post_max = post;
    fc_spin_main = main;
    return Py_BuildValue("(iii)", pre, post, main);
}

static PyMethodDef fc_methods[] = {
    {"_after_fork", fc_after_fork, METH_NOARGS, NULL},
    {"_spin_config", fc_spin_config, METH_VARARGS,
     "_spin_config([pre_ns, post_ns, main]) -> the spin settings (see README)."},
    {"patch", fc_patch, METH_NOARGS,
     "Install fastcond.Condition as threading.Condition."},
    {"unpatch", fc_unpatch, METH_NOARGS,
     "Restore the threading.Condition saved by patch()."},
    {"is_patched", fc_is_patched, METH_NOARGS,
     "True while threading.Condition is fastcond.Condition."},
    {NULL}
};

static struct PyModuleDef fc_module = {
    PyModuleDef_HEAD_INIT, "fastcond",
    "Native threading.Condition built on a pthread mutex and POSIX semaphores.",
    -1, fc_methods,
};

PyMODINIT_FUNC
PyInit_fastcond(void)
{
    PyObject *m, *thread_mod;

    CondType.tp_dealloc = (destructor)cond_dealloc;
    CondType.tp_repr = (reprfunc)cond_repr;
    CondType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC;
    CondType.tp_doc = "Condition(lock=None): a native drop-in for threading.Condition.";
    CondType.tp_traverse = (traverseproc)cond_traverse;
    CondType.tp_clear = (inquiry)cond_clear;
    CondType.tp_weaklistoffset = offsetof(CondObject, weakreflist);
    CondType.tp_methods = cond_methods;
    CondType.tp_getset = cond_getset;
    CondType.tp_dictoffset = offsetof(CondObject, dict);
    CondType.tp_init = (initproc)cond_init;
    CondType.tp_new = cond_new;
    if (PyType_Ready(&CondType) < 0)
        return NULL;

    thread_mod = PyImport_ImportModule("_thread");
    if (thread_mod == NULL)
        return NULL;
    default_lock_factory = PyObject_GetAttrString(thread_mod, "RLock");
    Py_DECREF(thread_mod);
    if (default_lock_factory == NULL) {
        PyObject *threading;
        PyErr_Clear();
        threading = PyImport_ImportModule("threading");
        if (threading == NULL)
            return NULL;
        default_lock_factory = PyObject_GetAttrString(threading, "RLock");
        Py_DECREF(threading);
        if (default_lock_factory == NULL)
            return NULL;
    }

#ifdef PYPY_VERSION
    {
        PyObject *g = PyDict_New();
        if (g == NULL)
            return NULL;
        if (PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) < 0)
            return NULL;
        pypy_tick = PyRun_String("lambda: [None for _ in ()]", Py_eval_input, g, g);
        Py_DECREF(g);
        if (pypy_tick == NULL)
            return NULL;
    }
#endif
    if (fc_set_main_ident() < 0)
        return NULL;
    m = PyModule_Create(&fc_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&CondType);
    if (PyModule_AddObject(m, "Condition", (PyObject *)&CondType) < 0) {
        Py_DECREF(&CondType);
        Py_DECREF(m);
        return NULL;
    }
    {
        /* a fork from another thread makes that thread the child's main */
        PyObject *os = PyImport_ImportModule("os"), *reg = NULL, *fn = NULL,
                 *kw = NULL, *args = NULL, *r = NULL;
        if (os != NULL && PyObject_HasAttrString(os, "register_at_fork")) {
            reg = PyObject_GetAttrString(os, "register_at_fork");
            fn = PyObject_GetAttrString(m, "_after_fork");
            args = PyTuple_New(0);
            if (reg && fn && args)
                kw = Py_BuildValue("{sO}", "after_in_child", fn);
            if (kw)
                r = PyObject_Call(reg, args, kw);
        }
        Py_XDECREF(os);
        Py_XDECREF(reg);
        Py_XDECREF(fn);
        Py_XDECREF(kw);
        Py_XDECREF(args);
        if (r == NULL && PyErr_Occurred()) {
            Py_DECREF(m);
            return NULL;
        }
        Py_XDECREF(r);
    }
#ifdef FC_HAVE_CLOCKWAIT
    PyModule_AddStringConstant(m, "timeout_clock", "CLOCK_MONOTONIC");
#else
    PyModule_AddStringConstant(m, "timeout_clock", "CLOCK_REALTIME");
#endif
    return m;
}
