# The GIL experiment after PythonPlus's Tools/plus/giltest.py (Kristjan Valur Jonsson, 2013), for
# CPython 2.7 and 3.x, PyPy and Jython 2.7: one file in Python 2.6 syntax that Python 3 also reads.
# See README.md for what each case times and checks.
from __future__ import with_statement

import os
import socket
import struct
import sys
import threading
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "subjects",
                                "fastcond", "python"))
import fastcond_build  # noqa: E402  (the subject's loader, found from this file)
import versus_helper as vh

try:
    xrange
except NameError:  # Python 3
    xrange = range

now_ns = vh.now_ns
WAKEUPS = int(vh.param("wakeups", "40"))  # io_wakeup_latency: wakeups per sample
PAUSE_S = int(vh.param("pause_us", "500")) / 1e6  # io_wakeup_latency: pause between wakeups


class ThreadFailed(Exception):
    pass


def start_threads(functions):
    """Start one thread per function; join() re-raises the first error of any of them in the caller."""
    errors = []

    def wrap(function):
        def body():
            try:
                function()
            except:
                errors.append("".join(traceback.format_exception(*sys.exc_info())))
        return body

    threads = [threading.Thread(target=wrap(f)) for f in functions]
    for thread in threads:
        thread.daemon = True
        thread.start()

    def join():
        for thread in threads:
            thread.join()
        if errors:
            raise ThreadFailed("a thread failed:\n" + errors[0])
    return join


TURN = [0]
ROUNDS = int(vh.param("rounds", "4"))  # chunks in which the variants of one sample take turns


def in_turns(items):
    """items, rotated by one more place at each call: what runs first changes from sample to sample."""
    turn = TURN[0] % len(items)
    TURN[0] += 1
    return items[turn:] + items[:turn]


def interleaved(n, variants):
    """Each variant (name, function of k returning (ns, count)) does n items in all, in ROUNDS
    chunks; in each chunk the variants run one after another, in an order that rotates. Returns the
    total ns and count per variant. Ratios of these totals are paired measurements: a burst of load
    from elsewhere on the machine falls on every variant alike."""
    sizes = [n // ROUNDS + (i < n % ROUNDS) for i in range(ROUNDS)]
    times = dict([(name, 0) for name, _ in variants])
    counts = dict([(name, 0) for name, _ in variants])
    for k in sizes:
        if k == 0:
            continue
        for name, run in in_turns(variants):
            ns, count = run(k)
            times[name] += ns
            counts[name] += count
    return times, counts


class Spinner(object):
    """A CPU-bound thread: counts in a pure-Python loop until stopped (the post's "cpu thread")."""

    def __init__(self):
        self.stopped = False
        self.count = 0
        self.running = threading.Event()
        self.started_ns = 0
        self.thread = threading.Thread(target=self.run)
        self.thread.daemon = True

    def run(self):
        n = 0
        self.started_ns = now_ns()
        self.running.set()
        while not self.stopped:
            n += 1
        self.count = n

    def __enter__(self):
        self.thread.start()
        self.running.wait()
        return self

    def __exit__(self, *exc):
        self.stopped = True
        self.thread.join()
        ns = now_ns() - self.started_ns
        # (No check that it counted: without a GIL, a stop right after the start may come before
        # its first loop. cpu_thread_loops_per_s shows how much it ran.)
        self.ns = ns
        self.rate = self.count * 1e9 / max(ns, 1)
        return False


# --------------------------------------------------------------------------------------------------
# cpu_efficiency: "e", the throughput of two CPU-bound threads relative to one


def count_to(n, out, index):
    i = 0
    while i < n:
        i += 1
    out[index] = i


def count_in_threads(parts):
    out = [0] * len(parts)
    calls = []
    for index, n in enumerate(parts):
        calls.append(lambda n=n, index=index: count_to(n, out, index))
    start = now_ns()
    start_threads(calls)()
    return now_ns() - start, sum(out)


def cpu_efficiency(ctx):
    """The sample: two threads counting to inner/2 each. Interleaved with it, in ROUNDS chunks and in
    turns, one thread counts to inner; e = that time / the sample's."""
    n = ctx.inner
    times, counts = interleaved(n, [
        ("one", lambda k: count_in_threads([k])),
        ("two", lambda k: count_in_threads([k // 2, k - k // 2]))])
    if counts["one"] != n:
        raise RuntimeError("one thread counted %d, not %d" % (counts["one"], n))
    ctx.metric("e", float(times["one"]) / max(times["two"], 1), "ratio")
    ctx.metric("one_thread_ns_per_increment", float(times["one"]) / n, "ns")
    return vh.Sample(times["two"], n, counts["two"])


# --------------------------------------------------------------------------------------------------
# producer/consumer pairs: one item at a time through a one-slot mailbox


def check_transfer(n, produced, consumed, total):
    """Both sides must have counted n transactions, and the consumer got 0 .. n-1 exactly once."""
    if produced[0] != n or consumed[0] != n or total[0] != n * (n - 1) // 2:
        raise RuntimeError("producer counted %d, consumer %d, sum %d; expected %d, %d, %d"
                           % (produced[0], consumed[0], total[0], n, n, n * (n - 1) // 2))
    return consumed[0]


def run_pair(producer, consumer):
    start = now_ns()
    start_threads([producer, consumer])()
    return now_ns() - start


def lock_pair(n):
    """giltest's pair: two threading.Locks used as binary semaphores."""
    may_put = threading.Lock()
    may_take = threading.Lock()
    may_take.acquire()  # the mailbox starts empty
    box = [None]
    produced, consumed, total = [0], [0], [0]

    def producer():
        for i in xrange(n):
            may_put.acquire()
            box[0] = i
            produced[0] += 1
            may_take.release()

    def consumer():
        got = 0
        count = 0
        for _ in xrange(n):
            may_take.acquire()
            got += box[0]
            count += 1
            may_put.release()
        total[0] = got
        consumed[0] = count

    ns = run_pair(producer, consumer)
    return ns, check_transfer(n, produced, consumed, total)


def condition_pair(n, cond):
    """One Condition (with its default lock) guards a one-slot mailbox; each side waits for its turn."""
    box = [None, False]  # item, full
    produced, consumed, total = [0], [0], [0]

    def producer():
        for i in xrange(n):
            with cond:
                while box[1]:
                    cond.wait()
                box[0] = i
                box[1] = True
                produced[0] += 1
                cond.notify()

    def consumer():
        got = 0
        count = 0
        for _ in xrange(n):
            with cond:
                while not box[1]:
                    cond.wait()
                got += box[0]
                box[1] = False
                count += 1
                cond.notify()
        total[0] = got
        consumed[0] = count

    ns = run_pair(producer, consumer)
    return ns, check_transfer(n, produced, consumed, total)


def transactions(ctx, ns, check):
    ctx.metric("transactions_per_s", ctx.inner * 1e9 / max(ns, 1), "1/s")
    return vh.Sample(ns, ctx.inner, check)


def prodcon_lock(ctx):
    ns, check = lock_pair(ctx.inner)
    return transactions(ctx, ns, check)


def prodcon_lock_with_cpu(ctx):
    """The sample: the Lock pair while a CPU thread spins. Interleaved with it, in ROUNDS chunks and
    in turns, the pair alone; the metric `kept` = time alone / time with the CPU thread, the share of
    its transactions per second the pair keeps."""
    spun = [0, 0]  # loops, ns

    def with_cpu(k):
        with Spinner() as spinner:
            result = lock_pair(k)
        spun[0] += spinner.count
        spun[1] += spinner.ns
        return result

    times, counts = interleaved(ctx.inner, [("alone", lock_pair), ("with_cpu", with_cpu)])
    ctx.metric("kept", float(times["alone"]) / max(times["with_cpu"], 1), "ratio")
    ctx.metric("cpu_thread_loops_per_s", spun[0] * 1e9 / max(spun[1], 1), "1/s")
    return transactions(ctx, times["with_cpu"], counts["with_cpu"])


def prodcon_condition(ctx):
    ns, check = condition_pair(ctx.inner, threading.Condition())
    return transactions(ctx, ns, check)


load_fastcond = fastcond_build.load


def prodcon_fastcond(ctx):
    """The sample: the pair with fastcond.Condition(). Interleaved with it, in ROUNDS chunks and in
    turns, the same pair with threading.Condition() and the Lock pair; the metrics are the ratios of
    their times to fastcond's: `vs_condition` (fastcond's handoffs per second relative to
    threading.Condition's) and `vs_lock` (relative to the Lock pair's)."""
    fastcond = load_fastcond()
    cond = fastcond.Condition()
    if type(cond).__module__ != "fastcond":
        raise RuntimeError("not fastcond's Condition: %r" % (cond,))
    n = ctx.inner
    times, counts = interleaved(n, [
        ("fastcond", lambda k: condition_pair(k, cond)),
        ("condition", lambda k: condition_pair(k, threading.Condition())),
        ("lock", lock_pair)])
    ctx.metric("vs_condition", float(times["condition"]) / max(times["fastcond"], 1), "ratio")
    ctx.metric("vs_lock", float(times["lock"]) / max(times["fastcond"], 1), "ratio")
    return transactions(ctx, times["fastcond"], counts["fastcond"])


# --------------------------------------------------------------------------------------------------
# io_wakeup_latency: a thread blocked on a socket, while a CPU thread spins


def connected_pair():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    sender = socket.create_connection(listener.getsockname())
    receiver, _ = listener.accept()
    listener.close()
    for sock in (sender, receiver):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (socket.error, AttributeError):
            pass
    return sender, receiver


def recv_exactly(sock, size):
    data = "".encode("ascii")
    while len(data) < size:
        more = sock.recv(size - len(data))
        if not more:
            raise RuntimeError("the connection closed early")
        data += more
    return data


def send_stamps(sock, n):
    """The sender: n times, pause, then send the time now as 8 bytes and wait for the 1-byte answer."""
    for _ in xrange(n):
        time.sleep(PAUSE_S)
        sock.sendall(struct.pack("!q", now_ns()))
        recv_exactly(sock, 1)


def io_wakeup_latency(ctx):
    """A receiver thread blocks in recv(); a sender sends it its own send time, WAKEUPS times, each
    after the answer to the previous one and a pause of PAUSE_S; the receiver stamps the time as soon
    as it runs again and answers. A CPU thread spins the whole time. The sender has no GIL to wait
    for: on CPython and PyPy it is a forked child process (made before any thread starts; the clock
    is CLOCK_MONOTONIC, one for the whole machine), on Jython (no GIL) a thread. The sample is the
    sum of the send-to-running latencies, so ns/iteration is the mean latency; inner is WAKEUPS."""
    n = WAKEUPS
    sender, receiver = connected_pair()
    latencies = []
    ack = "k".encode("ascii")
    child = 0
    sending = None
    try:
        if hasattr(os, "fork"):
            sys.stdout.flush()
            sys.stderr.flush()
            child = os.fork()
            if child == 0:  # the sender process: no threads, no output, never returns
                code = 1
                try:
                    receiver.close()
                    send_stamps(sender, n)
                    code = 0
                finally:
                    os._exit(code)
            sender.close()
        else:
            sending = start_threads([lambda: send_stamps(sender, n)])

        def receive():
            for _ in xrange(n):
                sent = struct.unpack("!q", recv_exactly(receiver, 8))[0]
                latencies.append(now_ns() - sent)
                receiver.sendall(ack)

        with Spinner() as spinner:
            start_threads([receive])()
        if sending is not None:
            sending()
    finally:
        receiver.close()
        sender.close()
        if child:
            _, status = os.waitpid(child, 0)
            if status != 0:
                raise RuntimeError("the sender process failed (status %d)" % status)
    if len(latencies) != n:
        raise RuntimeError("%d wakeups, expected %d" % (len(latencies), n))
    if min(latencies) < 0:
        raise RuntimeError("a wakeup before its send: %d ns (not one clock?)" % min(latencies))
    ordered = sorted(latencies)
    ctx.metric("wakeup_p50_us", ordered[n // 2] / 1e3, "us")
    ctx.metric("wakeup_max_us", ordered[-1] / 1e3, "us")
    ctx.metric("cpu_thread_loops_per_s", spinner.rate, "1/s")
    return vh.Sample(sum(latencies), n, len(latencies))


vh.run([
    ("cpu_efficiency", cpu_efficiency),
    ("prodcon_lock", prodcon_lock),
    ("prodcon_lock_with_cpu", prodcon_lock_with_cpu),
    ("prodcon_condition", prodcon_condition),
    ("prodcon_fastcond", prodcon_fastcond),
    ("io_wakeup_latency", io_wakeup_latency),
])
