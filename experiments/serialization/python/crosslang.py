"""The Python end of the cross-language test (tests/test_serialization_crosslang.py).

    python crosslang.py encode FORMAT VALUE_JSON OUT_FILE [VALUE_JSON OUT_FILE ...]
    python crosslang.py decode FORMAT VALUE_JSON IN_FILE [VALUE_JSON IN_FILE ...]

The same command line as the JVM's serialization.CrossLanguage: FORMAT is protobuf, thrift-binary,
thrift-compact, msgpack, cbor, avro, flatbuffers, fory-xlang or fory-xlang-consistent (CPython only: pyfory
has no PyPy release); VALUE_JSON a value file (experiments/serialization/data/media-*.json).
encode writes the serializer's bytes of each value. decode exits 0 if every file's bytes decode to a value
equal to its VALUE_JSON's (types and unset fields included), 1 with the first differing field of each file
that differs on stderr otherwise, 2 on a usage error, a missing install or undecodable bytes. Python 3.9 syntax.
"""
import sys

import pylibs

USAGE = "usage: crosslang.py encode|decode FORMAT VALUE_JSON FILE [VALUE_JSON FILE ...]   (FORMAT: %s)"


def main(argv):
    formats = ("protobuf", "thrift-binary", "thrift-compact", "msgpack", "cbor", "avro", "flatbuffers", "fory-xlang",
               "fory-xlang-consistent")
    if len(argv) < 4 or len(argv) % 2 or argv[0] not in ("encode", "decode") or argv[1] not in formats:
        sys.stderr.write(USAGE % ", ".join(formats) + "\n")
        return 2
    command, fmt, pairs = argv[0], argv[1], argv[2:]
    try:
        pylibs.activate()
        import model
        import serializers
        serializer = serializers.load(serializers.CROSS_LANGUAGE[fmt])
    except Exception as error:  # setup errors: a message, never a traceback
        sys.stderr.write("crosslang: %s\n" % error)
        return 2
    worst = 0
    # Several pairs share one interpreter start and one serializer (the imports are most of a call).
    for value_file, path in zip(pairs[::2], pairs[1::2]):
        try:
            value = model.load_value(value_file)
        except Exception as error:  # value errors: a message, never a traceback
            sys.stderr.write("crosslang: %s\n" % error)
            return 2
        if command == "encode":
            data = serializer.serialize(serializer.create(value))
            with open(path, "wb") as f:
                f.write(data)
            continue
        outcome = check(serializer, fmt, value, path)
        if outcome == 2:
            return 2
        worst = max(worst, outcome)
    return worst


def check(serializer, fmt, value, path):
    """0 if the file's bytes decode to the value, 1 (with the first difference on stderr) if not, 2 if they do not
    decode."""
    import model
    try:
        with open(path, "rb") as f:
            data = f.read()
        decoded = serializer.deserialize(data)
        got = serializer.plain(decoded)
        if fmt in ("msgpack", "cbor"):
            # The maps themselves, not only the object built from them: an extra key or a wrong type fails too.
            loads = __import__("msgpack").unpackb if fmt == "msgpack" else __import__("cbor2").loads
            got = loads(data)
    except Exception as error:  # bytes this library cannot decode
        sys.stderr.write("crosslang decode %s: %s: %s: %s\n" % (fmt, path, type(error).__name__, error))
        return 2
    difference = model.diff(got, value)
    if difference:
        sys.stderr.write("%s bytes of %s decode to a different value: %s\n" % (fmt, path, difference))
        return 1
    if serializer.touch(decoded) != model.digest(value):
        sys.stderr.write("%s bytes of %s: reading every field gave another digest\n" % (fmt, path))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
