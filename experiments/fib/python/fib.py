# The two fib algorithms of Charles Nutter's "The Fastest Ruby Platform?" (2006), for Jython 2.7,
# CPython 2.7 and 3.x and PyPy, written as the post wrote them in Ruby.  fib_iterative uses big ints.
# Python 2.5 syntax that Python 3 also reads: one file for both program families.
import os

import versus_helper as vh

try:
    xrange
except NameError:  # Python 3
    xrange = range

RECURSIVE_N = int(vh.param("recursive_n", "30"))
ITERATIVE_N = int(vh.param("iterative_n", "500000"))
# untimed calls of fib_recursive before its first sample, so that the JITs have compiled fib
WARMUP_CALLS = int(vh.param("warmup_calls", "5"))


def fib_recursive(n):
    if n < 2:
        return n
    else:
        return fib_recursive(n - 2) + fib_recursive(n - 1)


def fib_iterative(n):
    i = 0
    j = 1
    cur = 1
    while cur <= n:
        k = i
        i = j
        j = k + j
        cur += 1
    return i


def last20(value):
    # the last 20 decimal digits, zero-padded; taken modulo 10**20, since a full decimal conversion of
    # fib(500000) is slow and CPython >= 3.11 refuses it (int_max_str_digits)
    return "%020d" % (value % (10 ** 20))


def recursive_case(inner):
    result = None
    for _ in xrange(inner):
        result = fib_recursive(RECURSIVE_N)
    return result


def iterative_case(inner):
    result = None
    for _ in xrange(inner):
        result = fib_iterative(ITERATIVE_N)
    return last20(result)


if os.environ.get("VERSUS_CASE") == "fib_recursive":
    for _ in range(WARMUP_CALLS):
        fib_recursive(RECURSIVE_N)

vh.run([("fib_recursive", vh.timed(recursive_case)), ("fib_iterative", vh.timed(iterative_case))])
