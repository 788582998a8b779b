"""A `threading` module for Jython written in Python, shaped like Jython 2.5.0's.

Jython 2.5.0's threading module was Python code: `Lock` a Python class around
java.util.concurrent.locks.ReentrantLock, whose `__enter__`/`__exit__` the
with-statement called as ordinary Python methods.  Jython 2.5.1 replaced it
with Java classes (the `_threading` module).  versus puts this folder first on
python.path for jython@2.5.0 (whose Maven jar has no Lib of its own; it runs
with 2.5.1's Lib) and for jython@...+pythreading, so that the cost of a
Python-level lock can be measured on either compiler.

Written for versus (not taken from Jython).  Python 2.5 syntax.
"""
import sys as _sys

import java.lang.Thread as _JThread
from java.lang import Runnable as _Runnable
from java.lang import InterruptedException as _InterruptedException
from java.util import Collections as _Collections
from java.util import WeakHashMap as _WeakHashMap
import java.util.concurrent.Semaphore as _JSemaphore
from java.util.concurrent.locks import ReentrantLock as _ReentrantLock

try:
    from thread import _local as local
except ImportError:
    local = None

try:
    from thread import stack_size
except ImportError:
    def stack_size(size=0):
        return 0

__all__ = ['activeCount', 'active_count', 'Condition', 'currentThread', 'current_thread',
           'enumerate', 'Event', 'Lock', 'RLock', 'Semaphore', 'BoundedSemaphore', 'Thread',
           'Timer', 'setprofile', 'settrace', 'local', 'stack_size']

_profile_hook = None
_trace_hook = None


def setprofile(func):
    global _profile_hook
    _profile_hook = func


def settrace(func):
    global _trace_hook
    _trace_hook = func


def _nanos(timeout):
    return long(timeout * 1e9)


class Lock(object):
    """A lock: a Python object around a java.util.concurrent.locks.ReentrantLock."""

    def __init__(self):
        self._lock = _ReentrantLock()

    def acquire(self, blocking=1):
        if blocking:
            self._lock.lock()
            return True
        return self._lock.tryLock()

    def release(self):
        if not self._lock.isHeldByCurrentThread():
            raise RuntimeError("release of a lock this thread does not hold")
        self._lock.unlock()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, kind, value, trace):
        self.release()
        return False

    def locked(self):
        return self._lock.isLocked()

    def __repr__(self):
        return "<%s %s>" % (self.__class__.__name__, self._lock.toString())


class RLock(Lock):
    """The same ReentrantLock: in this module every lock is reentrant, as in Jython 2.5.0."""

    def _is_owned(self):
        return self._lock.isHeldByCurrentThread()


class Condition(object):
    def __init__(self, lock=None):
        if lock is None:
            lock = RLock()
        self._lock = lock
        self._condition = lock._lock.newCondition()

    def acquire(self, blocking=1):
        return self._lock.acquire(blocking)

    def release(self):
        self._lock.release()

    def __enter__(self):
        self._lock.acquire()
        return self

    def __exit__(self, kind, value, trace):
        self._lock.release()
        return False

    def wait(self, timeout=None):
        if timeout is None:
            self._condition.await()
        else:
            self._condition.awaitNanos(_nanos(timeout))

    def notify(self, n=1):
        for _ in xrange(n):
            self._condition.signal()

    def notifyAll(self):
        self._condition.signalAll()

    notify_all = notifyAll


class Semaphore(object):
    def __init__(self, value=1):
        if value < 0:
            raise ValueError("semaphore initial value must be >= 0")
        self._semaphore = _JSemaphore(value)

    def acquire(self, blocking=1):
        if blocking:
            self._semaphore.acquire()
            return True
        return self._semaphore.tryAcquire()

    def release(self):
        self._semaphore.release()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, kind, value, trace):
        self.release()
        return False


class BoundedSemaphore(Semaphore):
    def __init__(self, value=1):
        Semaphore.__init__(self, value)
        self._initial = value

    def release(self):
        if self._semaphore.availablePermits() >= self._initial:
            raise ValueError("semaphore released too many times")
        self._semaphore.release()


class Event(object):
    def __init__(self):
        self._cond = Condition(Lock())
        self._flag = False

    def isSet(self):
        return self._flag

    is_set = isSet

    def set(self):
        self._cond.acquire()
        try:
            self._flag = True
            self._cond.notifyAll()
        finally:
            self._cond.release()

    def clear(self):
        self._cond.acquire()
        try:
            self._flag = False
        finally:
            self._cond.release()

    def wait(self, timeout=None):
        self._cond.acquire()
        try:
            if not self._flag:
                self._cond.wait(timeout)
            return self._flag
        finally:
            self._cond.release()


# java.lang.Thread -> the Python Thread object that runs on it
_by_java_thread = _Collections.synchronizedMap(_WeakHashMap())
_live = {}  # java thread id -> Thread, for enumerate()
_live_lock = Lock()


class _Runner(_Runnable):
    def __init__(self, thread):
        self._thread = thread

    def run(self):
        self._thread._bootstrap()


class Thread(object):
    def __init__(self, group=None, target=None, name=None, args=(), kwargs=None, verbose=None):
        assert group is None, "group argument must be None for now"
        self._target = target
        self._args = args
        if kwargs is None:
            kwargs = {}
        self._kwargs = kwargs
        self._started = False
        self._thread = self._create_thread()
        if name:
            self._thread.setName(str(name))
        _by_java_thread.put(self._thread, self)

    def _create_thread(self):
        thread = _JThread(_Runner(self))
        thread.setDaemon(currentThread().isDaemon())
        return thread

    def start(self):
        if self._started:
            raise RuntimeError("thread already started")
        self._started = True
        _live_lock.acquire()
        try:
            _live[self._thread.getId()] = self
        finally:
            _live_lock.release()
        self._thread.start()

    def run(self):
        if self._target is not None:
            self._target(*self._args, **self._kwargs)

    def _bootstrap(self):
        try:
            if _trace_hook:
                _sys.settrace(_trace_hook)
            if _profile_hook:
                _sys.setprofile(_profile_hook)
            try:
                self.run()
            except SystemExit:
                pass
            except:
                kind, value, trace = _sys.exc_info()
                _sys.stderr.write("Exception in thread %s:\n" % self.getName())
                _sys.excepthook(kind, value, trace)
        finally:
            _live_lock.acquire()
            try:
                _live.pop(self._thread.getId(), None)
            finally:
                _live_lock.release()

    def join(self, timeout=None):
        if not self._started:
            raise RuntimeError("cannot join a thread before it is started")
        if timeout is None:
            self._thread.join()
        else:
            millis = timeout * 1000.0
            whole = int(millis)
            self._thread.join(whole, int((millis - whole) * 1e6))

    def getName(self):
        return self._thread.getName()

    def setName(self, name):
        self._thread.setName(str(name))

    name = property(getName, setName)

    def isAlive(self):
        return self._thread.isAlive()

    is_alive = isAlive

    def isDaemon(self):
        return self._thread.isDaemon()

    def setDaemon(self, daemonic):
        self._thread.setDaemon(bool(daemonic))

    daemon = property(isDaemon, setDaemon)

    def _get_ident(self):
        return self._thread.getId()

    ident = property(_get_ident)

    def __repr__(self):
        if self._thread.isAlive():
            state = "started"
        elif self._started:
            state = "stopped"
        else:
            state = "initial"
        if self._thread.isDaemon():
            state += " daemon"
        return "<%s(%s, %s)>" % (self.__class__.__name__, self.getName(), state)


class _ForeignThread(Thread):
    """A Python face for a Java thread this module did not start (the main thread, or others)."""

    def __init__(self, java_thread):
        self._java_thread = java_thread
        Thread.__init__(self)
        self._started = True

    def _create_thread(self):
        return self._java_thread

    def join(self, timeout=None):
        raise RuntimeError("cannot join a thread this module did not start")


def currentThread():
    java_thread = _JThread.currentThread()
    thread = _by_java_thread.get(java_thread)
    if thread is None:
        thread = _ForeignThread(java_thread)
    return thread


current_thread = currentThread


def enumerate():
    _live_lock.acquire()
    try:
        return [currentThread()] + [t for t in _live.values() if t._thread is not _JThread.currentThread()]
    finally:
        _live_lock.release()


def activeCount():
    return len(enumerate())


active_count = activeCount


class _Timer(Thread):
    def __init__(self, interval, function, args=(), kwargs=None):
        Thread.__init__(self)
        self.interval = interval
        self.function = function
        self.args = args
        if kwargs is None:
            kwargs = {}
        self.kwargs = kwargs
        self.finished = Event()

    def cancel(self):
        self.finished.set()

    def run(self):
        self.finished.wait(self.interval)
        if not self.finished.isSet():
            self.function(*self.args, **self.kwargs)
        self.finished.set()


def Timer(*args, **kwargs):
    return _Timer(*args, **kwargs)


def _shutdown():
    """Wait for every non-daemon thread this module started (what CPython does at exit)."""
    while True:
        _live_lock.acquire()
        try:
            waiting = [t for t in _live.values() if not t.isDaemon() and t.isAlive()]
        finally:
            _live_lock.release()
        if not waiting:
            return
        for thread in waiting:
            try:
                thread.join()
            except _InterruptedException:
                return


_main_thread = _ForeignThread(_JThread.currentThread())
_main_thread.setName("MainThread")

try:
    import atexit as _atexit
    _atexit.register(_shutdown)
except ImportError:
    pass
