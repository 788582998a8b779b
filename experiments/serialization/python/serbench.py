"""thrift-protobuf-compare (Eishay Smith, November 2008) for Python: one case per serializer.

Each sample times, `inner` times each and apart, the three operations of the 2008 harness on one value
(VERSUS_PARAM_VALUE, default standard: experiments/serialization/data/media-standard.json):

    create       build the serializer's object from the already-parsed value
    serialize    a freshly built object (never serialized before, built untimed) -> bytes
    deserialize  bytes -> the full object, every field read (touch)

The sample's time is serialize + deserialize (jvm-serializers' "total", the JVM side's `roundtrip`);
metrics give each operation per iteration (create_ns, serialize_ns, deserialize_ns) and the sizes
(size, deflate_size: zlib format at level 6, as the JVM side's java.util.zip.Deflater writes it).

Nothing is timed before the serializer has round-tripped the value to an equal object (types and
unset fields included) with a stable encoding; a serializer that loses anything fails its run. After
every sample the last object created, the last bytes and the last object decoded are checked again
(the check is "ok", as on the JVM side), and every decoded object's touch() must have returned the value's digest.

    python serbench.py --check        round-trip every value through every serializer, print the sizes
Python 3.9 syntax (PyPy 3.9). The packages come from scripts/serialization-python-deps.sh (pylibs.py).
"""
import gc
import sys
import zlib

import pylibs

try:
    pylibs.activate()
except pylibs.SetupError as _error:
    sys.stderr.write("serbench: error: %s\n" % _error)
    sys.exit(2)

import model  # noqa: E402
import serializers  # noqa: E402
import versus_helper as vh  # noqa: E402


CHUNK = 64  # fresh objects built untimed per batch of the serialize loop


class RoundTripError(Exception):
    pass


def deflated_size(data):
    return len(zlib.compress(data, 6))


def prepare(serializer, value):
    """Round-trip the value once, untimed; the reference bytes. RoundTripError says what differs."""
    def fail(what):
        raise RoundTripError("%s does not round-trip %s: %s" % (serializer.name, value_name(value), what))
    created = serializer.create(value)
    problem = model.diff(serializer.plain(created), value)
    if problem:
        fail("create: " + problem)
    data = serializer.serialize(created)
    if not isinstance(data, bytes):
        fail("serialize returned %s, not bytes" % type(data).__name__)
    back = serializer.deserialize(data)
    problem = model.diff(serializer.plain(back), value)
    if problem:
        fail("deserialize: " + problem)
    touched, expected = serializer.touch(back), model.digest(value)
    if touched != expected:
        fail("touch read %d, the value's digest is %d" % (touched, expected))
    if serializer.read_two is not None and value["images"]:
        two, wanted = tuple(serializer.read_two(data)), (value["media"]["uri"], value["images"][0]["uri"])
        if two != wanted:
            fail("read_two read %r, expected %r" % (two, wanted))
    again = serializer.serialize(back)
    if again != data:
        fail("serializing the decoded object gave %d other bytes than the first %d" % (len(again), len(data)))
    return data


def prewarm(serializer, value, millis):
    """Round trips for `millis` ms, untimed, before the first sample, as the 2008 harness ran an untimed
    warm-up pass: PyPy's JIT then has compiled the loops before the helper calibrates `inner` on them
    (cold, it would pick an inner ten times too small). CPython has no JIT to warm: not used there."""
    if millis <= 0:
        return
    create, serialize, deserialize, touch = serializer.create, serializer.serialize, serializer.deserialize, serializer.touch
    end = vh.now_ns() + millis * 1000000
    rounds = 0
    while vh.now_ns() < end:
        for _ in range(20):
            touch(deserialize(serialize(create(value))))
        rounds += 20
    print("prewarm: %d untimed round trips in %d ms" % (rounds, millis))


_VALUE_NAMES = {}


def serialize_fresh(create, serialize, value, inner, keep, now=vh.now_ns):
    """Nanoseconds to serialize `inner` objects that were never serialized, each once; the bytes go
    to `keep`, a ring of 16. A message may keep what serializing it computed (protobuf's Python
    implementation caches its byte size), which a program that builds and sends a message once never
    gets: batches of CHUNK objects are built untimed, then each batch is serialized, timed."""
    serialize_ns = 0
    done = 0
    while done < inner:
        fresh = [create(value) for _ in range(min(CHUNK, inner - done))]
        started = now()
        for o in fresh:
            keep[done & 15] = serialize(o)
            done += 1
        serialize_ns += now() - started
    return serialize_ns


def value_name(value):
    return _VALUE_NAMES.get(id(value), "the value")


def load_value(name):
    value = model.load_value(name)
    _VALUE_NAMES[id(value)] = name
    return value


def case_for(name):
    """A manual case: create, serialize and deserialize `inner` times each, timed apart."""
    state = {}
    now = vh.now_ns
    collect = gc.collect

    def setup():
        try:
            serializer = serializers.load(name)
            value = load_value(vh.param("value", "standard"))
            reference = prepare(serializer, value)
        except (pylibs.SetupError, model.ValueFileError, RoundTripError) as error:
            sys.stdout.flush()
            sys.stderr.write("serbench: error: %s\n" % error)
            sys.exit(1)
        print("serializer %s: %s" % (name, serializer.about))
        print("value %s: %d bytes, %d deflated" % (value_name(value), len(reference), deflated_size(reference)))
        state.update(serializer=serializer, value=value, reference=reference, digest=model.digest(value),
                     size=len(reference), deflated=deflated_size(reference))
        if pylibs.impl_name() == "pypy":
            prewarm(serializer, value, int(vh.param("pypy_prewarm_ms", "0")))

    def measure(ctx):
        if not state:
            setup()
        s = state["serializer"]
        create, serialize, deserialize, touch = s.create, s.serialize, s.deserialize, s.touch
        value = state["value"]
        inner = ctx.inner
        loops = range(inner)
        total = 0
        # Every result is stored (in a ring of 16): a JIT (PyPy) cannot then drop an allocation whose
        # object the loop would otherwise never use, and CPython pays the same store.
        keep = [None] * 16
        last = (inner - 1) & 15
        # As the 2008 harness asked for a GC before each timed loop: no loop pays for another's garbage.
        collect()
        t0 = now()
        for i in loops:
            keep[i & 15] = create(value)
        t1 = now()
        obj = keep[last]
        collect()
        serialize_ns = serialize_fresh(create, serialize, value, inner, keep)
        data = keep[last]
        collect()
        t2b = now()
        for i in loops:
            decoded = keep[i & 15] = deserialize(data)
            total += touch(decoded)
        t3 = now()
        read_two = s.read_two
        if read_two is not None:
            # Partial access, where the format has it: two fields from the bytes, nothing else decoded.
            t3b = now()
            for i in loops:
                keep[i & 15] = read_two(data)
            t4 = now()
            two = keep[last]
        check = verify(s, value, obj, data, total, inner)
        if check == "ok" and read_two is not None:
            wanted = (value["media"]["uri"], value["images"][0]["uri"])
            if tuple(two) != wanted:
                check = "read_two read %r, expected %r" % (tuple(two), wanted)
        ctx.metric("create_ns", (t1 - t0) / float(inner), "ns")
        ctx.metric("serialize_ns", serialize_ns / float(inner), "ns")
        ctx.metric("deserialize_ns", (t3 - t2b) / float(inner), "ns")
        if read_two is not None:
            ctx.metric("read_two_ns", (t4 - t3b) / float(inner), "ns")
        ctx.metric("size", state["size"], "bytes")
        ctx.metric("deflate_size", state["deflated"], "bytes")
        return vh.Sample(serialize_ns + (t3 - t2b), inner, check)

    def verify(s, value, obj, data, total, inner):
        """'ok', or what went wrong in this sample (the harness then fails the run)."""
        if data != state["reference"]:
            return "serialize gave %d bytes unlike the reference %d" % (len(data), state["size"])
        problem = model.diff(s.plain(obj), value)
        if problem:
            return "create: " + problem
        if total != inner * state["digest"]:
            return "deserialize: touch summed %d, expected %d x %d" % (total, inner, state["digest"])
        problem = model.diff(s.plain(s.deserialize(data)), value)
        if problem:
            return "deserialize: " + problem
        return "ok"

    return measure


def check_all():
    """--check: every serializer of this interpreter on every value; exit 1 if any fails."""
    failed = 0
    print("%-23s %s" % ("", " ".join("%17s" % v for v in model.value_names())))
    for name in serializers.names():
        try:
            serializer = serializers.load(name)
        except pylibs.SetupError as error:
            print("%-23s error: %s" % (name, error))
            failed += 1
            continue
        cells = []
        for value_file in model.value_names():
            try:
                data = prepare(serializer, load_value(value_file))
                cells.append("%17s" % ("%d/%d B" % (len(data), deflated_size(data))))
            except Exception as error:  # any failure of a library is a failed check here, never a traceback
                cells.append("%17s" % "FAILED")
                print("%s on %s: %s: %s" % (name, value_file, type(error).__name__, error), file=sys.stderr)
                failed += 1
        print("%-23s %s   %s" % (name, " ".join(cells), serializer.about))
    skipped = serializers.unavailable()
    if skipped:
        print("not on %s (no install): %s" % (pylibs.tag(), ", ".join(skipped)))
    print("bytes/deflated bytes per value; %s" % ("all equal after the round trip" if not failed else "%d FAILED" % failed))
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--check"]:
        sys.exit(check_all())
    if sys.argv[1:]:
        sys.stderr.write("usage: serbench.py [--check]  (the harness runs it with VERSUS_CASE set)\n")
        sys.exit(2)
    vh.run([("py_" + name, case_for(name)) for name in serializers.names()])


if __name__ == "__main__":
    main()
