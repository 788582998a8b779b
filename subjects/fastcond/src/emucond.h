/*
 * emucond.h: fastcond's emulated condition variable, the plain-C core
 * (no Python, no GIL): a pthread_mutex_t guarding a FIFO list of waiter
 * records, each with its own POSIX semaphore (sem_t).
 *
 * fastcond.c builds Condition.wait()/notify() on it (adding the user lock,
 * the GIL, timeouts, signals and spinning around the blocking sem_wait);
 * experiments/condvar/c/condvar.c measures it, through emucond_wait(),
 * against pthread_cond_t.  Both include this one file, so the experiment
 * measures fastcond's own code.
 *
 * A wait:  emucond_enter() (sem_init, append under the mutex), release the
 *          user lock, block on w->sem, then emucond_leave() (settle the
 *          outcome under the mutex, sem_destroy), re-acquire the user lock.
 * notify:  emucond_notify(): under the mutex, unlink up to n waiters from
 *          the head, mark each "notified" and sem_post its semaphore.
 *
 * A waiter is "notified" exactly when a notifier unlinked it, and the flag
 * is only read or written under the mutex: a waiter whose wait ended
 * otherwise (timeout, signal, error) learns in emucond_leave() whether a
 * notify raced with it, and either takes that wakeup or unlinks itself so
 * that no later notify is spent on it.  The notifier posts while holding
 * the mutex and the waiter takes the mutex before its record (and sem_t)
 * goes away, so sem_post never touches a dead semaphore.
 *
 * Every function is static, as they were inside fastcond.c (not `inline`,
 * so the compiler makes the same inlining choices as before): include this
 * in the one C file that uses it.  EMUCOND_ON_POST(w), if defined before the include,
 * runs under the mutex just before a waiter's sem_post (fastcond stamps
 * w->epoch there).
 */
#ifndef FASTCOND_EMUCOND_H
#define FASTCOND_EMUCOND_H

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/types.h>

#if defined(__GNUC__)
#  define EMUCOND_FN static __attribute__((unused))
#else
#  define EMUCOND_FN static
#endif

#ifndef EMUCOND_ON_POST
#  define EMUCOND_ON_POST(w) ((void)0)
#endif

typedef struct emucond_waiter {
    struct emucond_waiter *prev, *next;
    sem_t sem;
    int notified;
    unsigned long epoch;        /* free for EMUCOND_ON_POST (fastcond: the GIL epoch at the post) */
} emucond_waiter;

typedef struct {
    pthread_mutex_t mutex;
    emucond_waiter *head, *tail;
    ssize_t nwaiters;
} emucond;

/* A new, empty condition variable (also: forget every waiter after fork).
   0, or the error number of pthread_mutex_init. */
EMUCOND_FN int
emucond_init(emucond *c)
{
    c->head = c->tail = NULL;
    c->nwaiters = 0;
    return pthread_mutex_init(&c->mutex, NULL);
}

EMUCOND_FN void
emucond_destroy(emucond *c)
{
    pthread_mutex_destroy(&c->mutex);
}

/* ---- the waiter list: caller holds c->mutex ---- */

EMUCOND_FN void
emucond_append_locked(emucond *c, emucond_waiter *w)
{
    w->next = NULL;
    w->prev = c->tail;
    if (c->tail)
        c->tail->next = w;
    else
        c->head = w;
    c->tail = w;
    c->nwaiters++;
}

EMUCOND_FN void
emucond_unlink_locked(emucond *c, emucond_waiter *w)
{
    if (w->prev)
        w->prev->next = w->next;
    else
        c->head = w->next;
    if (w->next)
        w->next->prev = w->prev;
    else
        c->tail = w->prev;
    w->prev = w->next = NULL;
    c->nwaiters--;
}

/* Wakes up to n waiters, oldest first; returns how many.  Caller holds c->mutex. */
EMUCOND_FN ssize_t
emucond_wake_locked(emucond *c, ssize_t n)
{
    ssize_t woken = 0;
    while (woken < n && c->head) {
        emucond_waiter *w = c->head;
        emucond_unlink_locked(c, w);
        w->notified = 1;
        EMUCOND_ON_POST(w);
        sem_post(&w->sem);
        woken++;
    }
    return woken;
}

/* notify(n): wakes up to n waiters (n may be SSIZE_MAX: all). */
EMUCOND_FN ssize_t
emucond_notify(emucond *c, ssize_t n)
{
    ssize_t woken;
    pthread_mutex_lock(&c->mutex);
    woken = emucond_wake_locked(c, n);
    pthread_mutex_unlock(&c->mutex);
    return woken;
}

/* ---- a wait, in two halves around the blocking sem_wait on w->sem ---- */

/* Readies the waiter record w (the caller's, e.g. on its stack) and queues
   it.  0, or -1 with errno set (sem_init failed; nothing is queued). */
EMUCOND_FN int
emucond_enter(emucond *c, emucond_waiter *w)
{
    if (sem_init(&w->sem, 0, 0) != 0)
        return -1;
    w->notified = 0;
    pthread_mutex_lock(&c->mutex);
    emucond_append_locked(c, w);
    pthread_mutex_unlock(&c->mutex);
    return 0;
}

/* Ends a wait and frees w's semaphore.  got: the waiter took its post.
   Otherwise (timeout, signal, error) it looks under the mutex: if a notify
   unlinked it meanwhile, that post is consumed and counts as the wakeup,
   unless the wait `failed` (it leaves with an error), in which case the
   wakeup is handed on to the next waiter; if not, it unlinks itself.
   Returns whether the wait was notified. */
EMUCOND_FN inline int
emucond_leave(emucond *c, emucond_waiter *w, int got, int failed)
{
    pthread_mutex_lock(&c->mutex);
    if (!got) {
        if (w->notified) {
            /* notify raced with the timeout/signal: its post is already done */
            while (sem_wait(&w->sem) != 0 && errno == EINTR)
                ;
            if (failed)
                emucond_wake_locked(c, 1);   /* hand the wakeup on */
            else
                got = 1;
        }
        else
            emucond_unlink_locked(c, w);
    }
    pthread_mutex_unlock(&c->mutex);
    sem_destroy(&w->sem);
    return got;
}

/* The whole wait for plain C callers (no timeout, no spinning): like
   pthread_cond_wait(), with `user` the mutex the caller holds.  0, or an
   error number (then the caller holds `user` again, and was not notified). */
EMUCOND_FN int
emucond_wait(emucond *c, pthread_mutex_t *user)
{
    emucond_waiter w;
    int err = 0;
    if (emucond_enter(c, &w) != 0)
        return errno;
    pthread_mutex_unlock(user);
    while (sem_wait(&w.sem) != 0) {
        if (errno != EINTR) {
            err = errno;
            break;
        }
    }
    emucond_leave(c, &w, err == 0, err != 0);
    pthread_mutex_lock(user);
    return err;
}

#endif /* FASTCOND_EMUCOND_H */
