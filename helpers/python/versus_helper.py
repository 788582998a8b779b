"""versus protocol v1 helper for Python programs (see docs/protocol.md).

Runs unchanged on Python 2.5 (Jython 2.5.0) through Python 3.x, CPython, PyPy
and Jython: no `json`, no `with`, no `except X as e`, no print function, no
b'' literals, no str.format, no set literals.  It imports only sys, os and
time (and java.lang.System on Jython, for its clock).

    import versus_helper as vh

    def add_loop(n):                 # timed: gets inner, returns the check value
        ...
        return total

    def pool(ctx):                   # manual: times itself
        ...
        return vh.Sample(ns, inner, check)

    vh.run({"adder": vh.timed(add_loop), "pool": pool})

`run` takes a dict (its cases are listed in sorted order, so the order is the
same on every Python) or a list of (name, case) pairs (listed in that order).
"""
import os
import sys
import time

__all__ = ["Sample", "Context", "timed", "run", "param", "now_ns", "CLOCK", "RUNTIME", "VERSION"]

PROTOCOL_VERSION = 1
DEFAULT_MIN_SAMPLE_NS = 100000000
DEFAULT_WARMUP = 1
DEFAULT_SAMPLES = 3
MAX_INNER = 1 << 40

try:
    _string_types = (str, unicode)  # Python 2
    _int_types = (int, long)
except NameError:
    _string_types = (str,)
    _int_types = (int,)

# --------------------------------------------------------------------------
# runtime and clock

if sys.platform.startswith("java"):
    RUNTIME = "jython"
elif hasattr(sys, "pypy_version_info"):
    RUNTIME = "pypy"
else:
    RUNTIME = "cpython"

VERSION = ".".join([str(part) for part in tuple(sys.version_info)[:3]])
IMPL = " ".join(sys.version.split())

if hasattr(time, "perf_counter_ns"):
    CLOCK = "time.perf_counter_ns"
    now_ns = time.perf_counter_ns
elif hasattr(time, "perf_counter"):
    CLOCK = "time.perf_counter"
    _perf_counter = time.perf_counter

    def now_ns():
        return int(_perf_counter() * 1e9)
elif RUNTIME == "jython":
    from java.lang import System as _System
    CLOCK = "System.nanoTime"
    now_ns = _System.nanoTime
else:
    # Python 2 on CPython or PyPy has no monotonic clock in its stdlib; clock_gettime through
    # ctypes gives the same clock perf_counter uses on Linux, instead of time.time's wall clock.
    try:
        import ctypes as _ctypes

        class _Timespec(_ctypes.Structure):
            _fields_ = [("tv_sec", _ctypes.c_long), ("tv_nsec", _ctypes.c_long)]

        _libc = _ctypes.CDLL("librt.so.1", use_errno=True)
        _clock_gettime = _libc.clock_gettime
        _stamp = _Timespec()
        _stamp_ref = _ctypes.byref(_stamp)
        if _clock_gettime(1, _stamp_ref) != 0:  # 1 = CLOCK_MONOTONIC
            raise OSError("clock_gettime failed")
        CLOCK = "clock_gettime(CLOCK_MONOTONIC) via ctypes"

        def now_ns():
            _clock_gettime(1, _stamp_ref)
            return _stamp.tv_sec * 1000000000 + _stamp.tv_nsec
    except (ImportError, OSError, AttributeError):
        CLOCK = "time.time"
        _time = time.time

        def now_ns():
            return int(_time() * 1e9)

# --------------------------------------------------------------------------
# a tiny JSON writer: strings, ints, floats, bools, None, lists, ordered pairs


def _json_string(value):
    if not isinstance(value, _string_types):
        value = str(value)
    if not isinstance(value, type(u"")):
        value = value.decode("utf-8", "replace")  # Python 2 byte string
    out = ['"']
    for ch in value:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or 0x7F <= code <= 0xFFFF:
            out.append("\\u%04x" % code)
        elif code > 0xFFFF:
            code -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
        else:
            out.append(str(ch))
    out.append('"')
    return "".join(out)


def _json_number(value):
    if isinstance(value, bool):
        if value:
            return "true"
        return "false"
    if isinstance(value, _int_types):
        return str(value)
    text = repr(float(value))
    if "n" in text or "i" in text:  # nan, inf: not JSON
        return "null"
    if "." not in text and "e" not in text:
        text += ".0"
    return text


def to_json(value):
    """JSON text for None, bool, int, float, str, a list/tuple, or a _Pairs (ordered object)."""
    if value is None:
        return "null"
    if isinstance(value, (bool, float) + _int_types):
        return _json_number(value)
    if isinstance(value, _string_types):
        return _json_string(value)
    if isinstance(value, _Pairs):
        return "{" + ",".join([_json_string(k) + ":" + to_json(v) for k, v in value.items]) + "}"
    if isinstance(value, dict):
        keys = list(value.keys())
        keys.sort()
        return "{" + ",".join([_json_string(k) + ":" + to_json(value[k]) for k in keys]) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join([to_json(v) for v in value]) + "]"
    return _json_string(value)


class _Pairs(object):
    def __init__(self, items):
        self.items = items


def emit(*pairs):
    """Write one protocol line: emit(("type", "end")) -> @versus {"type":"end"}."""
    sys.stdout.write("@versus " + to_json(_Pairs(list(pairs))) + "\n")
    sys.stdout.flush()


def _check_text(value):
    if isinstance(value, bool):
        if value:
            return "true"
        return "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, _string_types):
        return value
    return str(value)

# --------------------------------------------------------------------------
# the API


class Sample(object):
    """One timed measurement: `ns` for `inner` iterations, and the check value (None for none)."""

    def __init__(self, ns, inner, check=None):
        self.ns = ns
        self.inner = inner
        self.check = check


_REQUIRED = object()


def param(name, default=_REQUIRED):
    """The experiment parameter VERSUS_PARAM_<NAME> as a string, or `default`; without a default a
    parameter the run does not pass is an error that names the ones it does (a typo is not None)."""
    value = os.environ.get("VERSUS_PARAM_" + name.upper())
    if value is not None:
        return value
    if default is not _REQUIRED:
        return default
    known = [k[len("VERSUS_PARAM_"):].lower() for k in os.environ if k.startswith("VERSUS_PARAM_")]
    known.sort()
    raise KeyError("unknown parameter %r: this run passes %s; give param() a default to make it optional"
                   % (name, ", ".join(known) or "no parameters"))


class Context(object):
    """What a manual case gets: inner, case, warmup, param(name, default), metric(name, value, unit)."""

    def __init__(self, case, inner, warmup):
        self.case = case
        self.inner = inner
        self.warmup = warmup
        self.metrics = []

    def param(self, name, default=_REQUIRED):
        return param(name, default)

    def metric(self, name, value, unit):
        self.metrics.append((name, value, unit))


class _Timed(object):
    def __init__(self, function):
        self.function = function

    def __call__(self, ctx):
        function = self.function
        inner = ctx.inner
        start = now_ns()
        result = function(inner)
        elapsed = now_ns() - start
        return Sample(elapsed, inner, result)


def timed(function):
    """A timed case: the helper times function(inner), which returns the check value or None."""
    return _Timed(function)


class _UsageError(Exception):
    pass


def _env_int(name, default, minimum):
    text = os.environ.get(name)
    if text is None or text.strip() == "":
        if default is None:
            raise _UsageError(name + " is not set")
        return default
    try:
        value = int(text.strip())
    except ValueError:
        raise _UsageError(name + "=" + repr(text) + " is not an integer")
    if value < minimum:
        raise _UsageError(name + "=" + repr(text) + " must be >= " + str(minimum))
    return value


def _case_list(cases):
    if isinstance(cases, dict):
        names = list(cases.keys())
        names.sort()
        return [(name, cases[name]) for name in names]
    return [(name, case) for name, case in cases]


def _hello():
    emit(("v", PROTOCOL_VERSION), ("type", "hello"), ("runtime", RUNTIME), ("version", VERSION),
         ("clock", CLOCK), ("impl", IMPL))


def _call(name, case, inner, warmup):
    ctx = Context(name, inner, warmup)
    sample = case(ctx)
    if not isinstance(sample, Sample):
        raise TypeError("case %r returned %r, not a versus_helper.Sample" % (name, sample))
    if not isinstance(sample.ns, _int_types) or isinstance(sample.ns, bool):
        sample.ns = int(sample.ns)
    return sample, ctx


def _report(name, sample, ctx, warmup):
    emit(("type", "sample"), ("case", name), ("ns", max(0, int(sample.ns))), ("inner", int(sample.inner)),
         ("warmup", warmup))
    if sample.check is not None:
        emit(("type", "check"), ("case", name), ("value", _check_text(sample.check)))
    if not warmup:
        for metric_name, value, unit in ctx.metrics:
            emit(("type", "metric"), ("case", name), ("name", metric_name), ("value", value), ("unit", unit))


def _calibrate(name, case, min_ns, first_warmup):
    """Double inner until a sample takes >= min_ns, then scale it to the target (min_ns + 10%),
    re-measuring and re-scaling up to 3 times while a sample falls short (a JIT warming up).

    A sample that reaches min_ns is measured once more and the faster of the two is used, so
    that a one-time cost in an early call does not stop the doubling too soon.

    Returns (inner, first) where `first` is a (sample, ctx) to report as the first sample, when the
    case sizes itself (it ignores ctx.inner): its probe run is then a real sample, not wasted."""
    inner = 1
    while True:
        sample, ctx = _call(name, case, inner, first_warmup)
        if int(sample.inner) != inner:
            return 0, (sample, ctx)
        if inner >= MAX_INNER:
            break
        if sample.ns >= min_ns:
            # confirm: a first call may carry one-time costs (class loading, a JIT compile)
            again, ctx = _call(name, case, inner, first_warmup)
            if again.ns < sample.ns:
                sample = again
            if sample.ns >= min_ns // 2:
                break
        inner *= 2
    target = min_ns * 1.1  # a margin so that the samples stay above min_ns
    for _ in range(3):
        # refine: a JIT may have made the code faster since the probe
        if sample.ns > 0:
            inner = max(1, min(MAX_INNER, int(inner * target / sample.ns + 0.5)))
        sample, ctx = _call(name, case, inner, first_warmup)
        if sample.ns >= min_ns:
            break
    sys.stdout.write("calibrated %s: inner=%d (last probe %d ns)\n" % (name, inner, sample.ns))
    return inner, None


def _fail_usage(message):
    sys.stdout.flush()
    sys.stderr.write("versus_helper: " + message + "\n")
    sys.stderr.flush()
    sys.exit(2)


def run(cases):
    """Run the case VERSUS_CASE as the environment says, speaking protocol v1 on stdout."""
    cases = _case_list(cases)
    try:
        protocol = os.environ.get("VERSUS_PROTOCOL", "1").strip()
        if protocol != "1":
            raise _UsageError("VERSUS_PROTOCOL=" + repr(protocol) + " is not supported (this helper speaks 1)")
        listing = os.environ.get("VERSUS_LIST", "").strip() not in ("", "0")
        if not listing:
            name = os.environ.get("VERSUS_CASE")
            if name is None or name == "":
                raise _UsageError("VERSUS_CASE is not set (cases: " + ", ".join([n for n, c in cases]) + ")")
            found = [c for n, c in cases if n == name]
            if not found:
                raise _UsageError("VERSUS_CASE=" + repr(name) + " is not a case of this program (cases: " +
                                  ", ".join([n for n, c in cases]) + ")")
            case = found[0]
            warmup = _env_int("VERSUS_WARMUP", DEFAULT_WARMUP, 0)
            samples = _env_int("VERSUS_SAMPLES", DEFAULT_SAMPLES, 0)
            inner = _env_int("VERSUS_INNER", 0, 0)
            min_ns = _env_int("VERSUS_MIN_SAMPLE_NS", DEFAULT_MIN_SAMPLE_NS, 1)
    except _UsageError:
        _fail_usage(str(sys.exc_info()[1]))

    _hello()
    if listing:
        for case_name, _ in cases:
            emit(("type", "case"), ("name", case_name))
        emit(("type", "end"))
        return

    try:
        pending = []
        if inner == 0 and warmup + samples > 0:
            inner, first = _calibrate(name, case, min_ns, warmup > 0)
            if first is not None:
                pending.append(first)
        for index in range(warmup + samples):
            is_warmup = index < warmup
            if pending:
                sample, ctx = pending.pop()
            else:
                sample, ctx = _call(name, case, inner, is_warmup)
            _report(name, sample, ctx, is_warmup)
    except (KeyboardInterrupt, SystemExit):
        raise
    except:
        sys.stdout.flush()
        kind, error, trace = sys.exc_info()
        sys.stderr.write("versus_helper: case %r failed:\n" % (name,))
        sys.excepthook(kind, error, trace)
        sys.stderr.flush()
        sys.exit(1)
    emit(("type", "end"))
