# ruff: noqa
# A tiny program for tests/test_helpers.py: every feature of versus_helper, Python 2.5 .. 3.x.
# Python 2.5 syntax and semantics: keep the u"" prefix (ruff would drop it, hence the noqa above).
import versus_helper as vh


def add_loop(n):
    total = 0
    i = 0
    while i < n:
        total += i & 7
        i += 1
    return total


def manual(ctx):
    start = vh.now_ns()
    inner = ctx.inner or 10
    total = add_loop(inner)
    ns = vh.now_ns() - start
    ctx.metric(u"na\u00efve \"q\" \u2603 \U0001F600", 242, "bytes")
    ctx.metric("ratio", 0.5, "1")
    return vh.Sample(ns, inner, ctx.param("expect", "none") + ":" + str(total))


def self_sized(ctx):
    start = vh.now_ns()
    add_loop(1000)
    return vh.Sample(vh.now_ns() - start, 1000, True)


def boom(n):
    raise ValueError("boom from the test program")


def typo(ctx):
    return vh.Sample(1, 1, ctx.param("expectt"))  # a misspelt parameter without a default


vh.run([("add", vh.timed(add_loop)), ("manual", manual), ("self_sized", self_sized), ("boom", vh.timed(boom)),
        ("typo", typo)])
