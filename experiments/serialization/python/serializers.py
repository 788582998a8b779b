"""The Python serializers of the serialization experiment, each as five plain functions.

    create(plain form) -> object         build the serializer's object from already-parsed values
    serialize(object) -> bytes
    deserialize(bytes) -> object         the full object: dict-based codecs build the plain object
    touch(object) -> int                 read every field (with presence); returns model.digest(value)
    plain(object) -> plain form          for comparing with the value, outside the timed loops

The timed loops call these functions directly, so each operation costs every serializer the same one
Python call on top of its own work. Objects: protobuf and Thrift carry their generated classes, msgspec
its Structs, the others the plain object of model.py (slotted dataclasses with Enum members).
Python 3.9 syntax (PyPy 3.9).
"""
import io
import json
import os
import pickle
import sys
from typing import List, Optional

import model
import pylibs


class Serializer(object):
    def __init__(self, name, requires, about, create, serialize, deserialize, touch, plain):
        self.name = name
        self.requires = requires  # distributions in requirements/*.txt
        self.about = about  # library, version and implementation, for the process log
        self.create = create
        self.serialize = serialize
        self.deserialize = deserialize
        self.touch = touch
        self.plain = plain


def _version(distribution):
    return pylibs.requirements().get(distribution, "?")


# ---------------------------------------------------------------------------------------------- protobuf

def _protobuf():
    from google.protobuf.internal import api_implementation

    import media_pb2 as pb

    MC, Media, Image = pb.MediaContent, pb.Media, pb.Image
    players = {"JAVA": pb.Media.JAVA, "FLASH": pb.Media.FLASH, None: None}
    sizes = {"SMALL": pb.Image.SMALL, "LARGE": pb.Image.LARGE, None: None}
    player_name = pb.Media.Player.Name
    size_name = pb.Image.Size.Name

    def create(v):
        m = v["media"]
        # None leaves a field unset (proto2 presence), as in the value.
        return MC(media=Media(uri=m["uri"], title=m["title"], width=m["width"], height=m["height"],
                              format=m["format"], duration=m["duration"], size=m["size"], bitrate=m["bitrate"],
                              person=m["persons"], player=players[m["player"]], copyright=m["copyright"]),
                  image=[Image(uri=i["uri"], title=i["title"], width=i["width"], height=i["height"],
                               size=sizes[i["size"]]) for i in v["images"]])

    def serialize(c):
        return c.SerializeToString()

    def deserialize(data):
        return MC.FromString(data)

    def touch(c):
        # upb materializes Python values on access: reading each field is part of deserializing.
        m = c.media
        n = 7 + len(m.uri)
        h = m.HasField
        if h("title"):
            n += 7 + len(m.title)
        if h("width"):
            n += 7 + m.width
        if h("height"):
            n += 7 + m.height
        if h("format"):
            n += 7 + len(m.format)
        if h("duration"):
            n += 7 + m.duration
        if h("size"):
            n += 7 + m.size
        if h("bitrate"):
            n += 7 + m.bitrate
        n += 7
        for p in m.person:
            n += len(p)
        if h("player"):
            m.player
            n += 7
        if h("copyright"):
            n += 7 + len(m.copyright)
        for i in c.image:
            h = i.HasField
            n += 7 + len(i.uri)
            if h("title"):
                n += 7 + len(i.title)
            if h("width"):
                n += 7 + i.width
            if h("height"):
                n += 7 + i.height
            if h("size"):
                i.size
                n += 7
        return n

    def plain(c):
        def opt(message, field, convert=None):
            if not message.HasField(field):
                return None
            value = getattr(message, field)
            return convert(value) if convert else value
        m = c.media
        return {"media": {"uri": m.uri, "title": opt(m, "title"), "width": opt(m, "width"), "height": opt(m, "height"),
                          "format": opt(m, "format"), "duration": opt(m, "duration"), "size": opt(m, "size"),
                          "bitrate": opt(m, "bitrate"), "persons": list(m.person),
                          "player": opt(m, "player", player_name), "copyright": opt(m, "copyright")},
                "images": [{"uri": i.uri, "title": opt(i, "title"), "width": opt(i, "width"),
                            "height": opt(i, "height"), "size": opt(i, "size", size_name)} for i in c.image]}

    about = "protobuf %s (%s implementation), proto2 classes from schema/media.proto" % (
        _version("protobuf"), api_implementation.Type())
    return about, create, serialize, deserialize, touch, plain


# ---------------------------------------------------------------------------------------------- Thrift

def _thrift(protocol):
    from media import ttypes as tt
    from thrift.protocol import TBinaryProtocol, TCompactProtocol
    from thrift.transport.TTransport import TMemoryBuffer

    try:
        from thrift.protocol import fastbinary  # noqa: F401  the C codec of thrift's setup.py
        accelerated = True
    except ImportError:
        accelerated = False
    if not accelerated and pylibs.impl_name() == "cpython":
        # setup.py falls back to pure Python when the C build fails; that would measure something else.
        raise pylibs.SetupError("thrift's C extension (fastbinary) did not build for %s: run %s %s"
                                % (pylibs.tag(), pylibs.BUILD_COMMAND, sys.executable))
    if protocol == "binary":
        factory = (TBinaryProtocol.TBinaryProtocolAcceleratedFactory(fallback=False) if accelerated
                   else TBinaryProtocol.TBinaryProtocolFactory())
    else:
        factory = (TCompactProtocol.TCompactProtocolAcceleratedFactory(fallback=False) if accelerated
                   else TCompactProtocol.TCompactProtocolFactory())
    get_protocol = factory.getProtocol
    MC, Media, Image = tt.MediaContent, tt.Media, tt.Image
    players = {"JAVA": tt.Player.JAVA, "FLASH": tt.Player.FLASH, None: None}
    sizes = {"SMALL": tt.Size.SMALL, "LARGE": tt.Size.LARGE, None: None}
    player_names = dict(tt.Player._VALUES_TO_NAMES)
    size_names = dict(tt.Size._VALUES_TO_NAMES)

    def create(v):
        m = v["media"]
        return MC(image=[Image(i["uri"], i["title"], i["width"], i["height"], sizes[i["size"]]) for i in v["images"]],
                  media=Media(m["uri"], m["title"], m["width"], m["height"], m["format"], m["duration"], m["size"],
                              m["bitrate"], list(m["persons"]), players[m["player"]], m["copyright"]))

    def serialize(c):
        buffer = TMemoryBuffer()
        c.write(get_protocol(buffer))
        return buffer.getvalue()

    def deserialize(data):
        c = MC()
        c.read(get_protocol(TMemoryBuffer(data)))
        return c

    def touch(c):
        m = c.media
        n = 7 + len(m.uri)
        s = m.title
        if s is not None:
            n += 7 + len(s)
        for x in (m.width, m.height, m.duration, m.size, m.bitrate):
            if x is not None:
                n += 7 + x
        s = m.format
        if s is not None:
            n += 7 + len(s)
        n += 7
        for p in m.person:
            n += len(p)
        if m.player is not None:
            n += 7
        s = m.copyright
        if s is not None:
            n += 7 + len(s)
        for i in c.image:
            n += 7 + len(i.uri)
            s = i.title
            if s is not None:
                n += 7 + len(s)
            x = i.width
            if x is not None:
                n += 7 + x
            x = i.height
            if x is not None:
                n += 7 + x
            if i.size is not None:
                n += 7
        return n

    def plain(c):
        m = c.media
        return {"media": {"uri": m.uri, "title": m.title, "width": m.width, "height": m.height, "format": m.format,
                          "duration": m.duration, "size": m.size, "bitrate": m.bitrate,
                          "persons": list(m.person) if m.person is not None else None,
                          "player": None if m.player is None else player_names.get(m.player, m.player),
                          "copyright": m.copyright},
                "images": [{"uri": i.uri, "title": i.title, "width": i.width, "height": i.height,
                            "size": None if i.size is None else size_names.get(i.size, i.size)}
                           for i in (c.image or [])]}

    about = "thrift %s, T%sProtocol%s, classes from schema/media.thrift (thrift-compiler %s)" % (
        _version("thrift"), protocol.capitalize(), "Accelerated (C fastbinary)" if accelerated else " (pure Python)",
        _generated_by_thrift())
    return about, create, serialize, deserialize, touch, plain


def _generated_by_thrift():
    from media import ttypes
    with open(ttypes.__file__) as f:
        for line in f:
            if "Autogenerated by Thrift Compiler" in line:
                return line.split("(")[-1].split(")")[0]
    return "?"


# ---------------------------------------------------------------------------------------------- the plain object's codecs

def _pickle():
    protocol = pickle.HIGHEST_PROTOCOL

    def serialize(c):
        return pickle.dumps(c, protocol)

    about = "pickle protocol %d (%s)" % (protocol, "C _pickle" if _has_c_pickle() else "pure Python")
    return about, model.create, serialize, pickle.loads, model.touch, model.plain


def _has_c_pickle():
    try:
        import _pickle  # noqa: F401
        return True
    except ImportError:
        return False


def _json():
    # Compact and UTF-8, as orjson, msgspec and the JVM's Jackson write JSON (json.dumps's defaults would
    # add spaces and \\u-escape every non-ASCII character).
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    to_dict, create, loads = model.to_dict, model.create, json.loads

    def serialize(c):
        return encode(to_dict(c)).encode("utf-8")

    def deserialize(data):
        return create(loads(data))

    about = "json (standard library), compact UTF-8, through dicts"
    return about, model.create, serialize, deserialize, model.touch, model.plain


def _orjson():
    import orjson

    create, loads = model.create, orjson.loads

    def deserialize(data):
        return create(loads(data))

    # orjson writes dataclasses and enums itself; decoding gives dicts, from which the object is built.
    about = "orjson %s, dataclasses natively, decoded through dicts" % _version("orjson")
    return about, model.create, orjson.dumps, deserialize, model.touch, model.plain


def _msgpack():
    import msgpack

    pack = msgpack.Packer().pack
    to_dict, create, unpackb = model.to_dict, model.create, msgpack.unpackb

    def serialize(c):
        return pack(to_dict(c))

    def deserialize(data):
        return create(unpackb(data))

    about = "msgpack %s (%s), maps with the value files' field names, through dicts" % (
        _version("msgpack"), "C extension" if _msgpack_is_c(msgpack) else "pure Python fallback")
    return about, model.create, serialize, deserialize, model.touch, model.plain


def _msgpack_is_c(msgpack):
    return msgpack.Packer.__module__ != "msgpack.fallback"


def _cbor2():
    import cbor2

    to_dict, create, dumps, loads = model.to_dict, model.create, cbor2.dumps, cbor2.loads

    def serialize(c):
        return dumps(to_dict(c))

    def deserialize(data):
        return create(loads(data))

    c_module = getattr(cbor2, "_cbor2", None) or sys.modules.get("_cbor2") or sys.modules.get("cbor2._cbor2")
    about = "cbor2 %s (%s), maps with the value files' field names, through dicts" % (
        _version("cbor2"), "C extension" if c_module is not None else "pure Python")
    return about, model.create, serialize, deserialize, model.touch, model.plain


def _fastavro():
    import fastavro

    with open(os.path.join(pylibs.SCHEMA, "media.avsc")) as f:
        schema = fastavro.parse_schema(json.load(f))
    to_dict, create = model.to_dict, model.create
    writer, reader, BytesIO = fastavro.schemaless_writer, fastavro.schemaless_reader, io.BytesIO

    def serialize(c):
        buffer = BytesIO()
        writer(buffer, schema, to_dict(c))
        return buffer.getvalue()

    def deserialize(data):
        return create(reader(BytesIO(data), schema))

    about = "fastavro %s (%s), schemaless records of schema/media.avsc, through dicts" % (
        _version("fastavro"), "Cython" if _fastavro_is_c() else "pure Python")
    return about, model.create, serialize, deserialize, model.touch, model.plain


def _fastavro_is_c():
    try:
        import fastavro._read  # noqa: F401  the Cython reader; absent where only _read_py installed
        return True
    except ImportError:
        return False


def _pyfory():
    import pyfory

    fory = pyfory.Fory(xlang=False, ref=False)
    for cls in (model.Player, model.Size, model.Image, model.Media, model.MediaContent):
        fory.register(cls)
    about = "pyfory %s (Python-native mode, ref tracking off), the dataclasses registered" % _version("pyfory")
    return about, model.create, fory.serialize, fory.deserialize, model.touch, model.plain


# ---------------------------------------------------------------------------------------------- FlatBuffers

def _flatbuffers():
    """schema/media.fbs written and read by hand with the flatbuffers runtime's Builder and Table, as the
    JVM side does (flatc is not pinned here): vtable slot n is the schema's n-th field; optional scalars
    (`= null`) are absent when unset. serialize builds the buffer from the plain object; deserialize copies
    every field out into a plain object (the JVM side's "full object"; FlatBuffers' own strength, reading
    a few fields in place, is not what this case measures)."""
    import flatbuffers
    from flatbuffers import encode, packer
    from flatbuffers import number_types as N
    from flatbuffers.table import Table

    size_codes = {model.Size.SMALL: 0, model.Size.LARGE: 1, None: None}
    player_codes = {model.Player.JAVA: 0, model.Player.FLASH: 1, None: None}
    sizes, players = (model.Size.SMALL, model.Size.LARGE), (model.Player.JAVA, model.Player.FLASH)
    Builder, Image, Media, MediaContent = flatbuffers.Builder, model.Image, model.Media, model.MediaContent
    Int32, Int64, Int8, UOffset = N.Int32Flags, N.Int64Flags, N.Int8Flags, packer.uoffset

    def string_vector(b, offsets):
        b.StartVector(4, len(offsets), 4)
        for offset in reversed(offsets):
            b.PrependUOffsetTRelative(offset)
        return b.EndVector()

    def serialize(c):
        b = Builder(512)
        images = []
        for i in c.images:
            uri = b.CreateString(i.uri)
            title = None if i.title is None else b.CreateString(i.title)
            b.StartObject(5)
            b.PrependUOffsetTRelativeSlot(0, uri, 0)
            if title is not None:
                b.PrependUOffsetTRelativeSlot(1, title, 0)
            b.PrependInt32Slot(2, i.width, None)
            b.PrependInt32Slot(3, i.height, None)
            b.PrependInt8Slot(4, size_codes[i.size], None)
            images.append(b.EndObject())
        image_vector = string_vector(b, images)
        m = c.media
        uri = b.CreateString(m.uri)
        title = None if m.title is None else b.CreateString(m.title)
        fmt = None if m.format is None else b.CreateString(m.format)
        persons = string_vector(b, [b.CreateString(p) for p in m.persons])
        copyright = None if m.copyright is None else b.CreateString(m.copyright)
        b.StartObject(11)
        b.PrependUOffsetTRelativeSlot(0, uri, 0)
        if title is not None:
            b.PrependUOffsetTRelativeSlot(1, title, 0)
        b.PrependInt32Slot(2, m.width, None)
        b.PrependInt32Slot(3, m.height, None)
        if fmt is not None:
            b.PrependUOffsetTRelativeSlot(4, fmt, 0)
        b.PrependInt64Slot(5, m.duration, None)
        b.PrependInt64Slot(6, m.size, None)
        b.PrependInt32Slot(7, m.bitrate, None)
        b.PrependUOffsetTRelativeSlot(8, persons, 0)
        b.PrependInt8Slot(9, player_codes[m.player], None)
        if copyright is not None:
            b.PrependUOffsetTRelativeSlot(10, copyright, 0)
        media = b.EndObject()
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(0, image_vector, 0)
        b.PrependUOffsetTRelativeSlot(1, media, 0)
        b.Finish(b.EndObject())
        return bytes(b.Output())

    def text(t, slot):
        o = t.Offset(4 + 2 * slot)
        return t.String(o + t.Pos).decode("utf-8") if o else None

    def scalar(t, slot, flags):
        o = t.Offset(4 + 2 * slot)
        return t.Get(flags, o + t.Pos) if o else None

    def child(t, slot):
        o = t.Offset(4 + 2 * slot)
        return Table(t.Bytes, t.Indirect(o + t.Pos)) if o else None

    def vector(t, slot):
        """(start, length) of a vector field; (0, 0) when absent."""
        o = t.Offset(4 + 2 * slot)
        return (t.Vector(o), t.VectorLen(o)) if o else (0, 0)

    def deserialize(data):
        root = Table(data, encode.Get(UOffset, data, 0))
        images = []
        start, length = vector(root, 0)
        for k in range(length):
            i = Table(data, root.Indirect(start + 4 * k))
            size = scalar(i, 4, Int8)
            images.append(Image(text(i, 0), text(i, 1), scalar(i, 2, Int32), scalar(i, 3, Int32),
                                None if size is None else sizes[size]))
        m = child(root, 1)
        start, length = vector(m, 8)
        persons = [m.String(start + 4 * k).decode("utf-8") for k in range(length)]
        player = scalar(m, 9, Int8)
        media = Media(text(m, 0), text(m, 1), scalar(m, 2, Int32), scalar(m, 3, Int32), text(m, 4),
                      scalar(m, 5, Int64), scalar(m, 6, Int64), scalar(m, 7, Int32), persons,
                      None if player is None else players[player], text(m, 10))
        return MediaContent(media, images)

    about = "flatbuffers %s (Python runtime), schema/media.fbs by hand, copied out into the plain object" % (
        _version("flatbuffers"))
    return about, model.create, serialize, deserialize, model.touch, model.plain


# ---------------------------------------------------------------------------------------------- msgspec

def _msgspec(kind):
    import msgspec

    class MImage(msgspec.Struct):
        uri: str
        title: Optional[str]
        width: Optional[int]
        height: Optional[int]
        size: Optional[model.Size]

    class MMedia(msgspec.Struct):
        uri: str
        title: Optional[str]
        width: Optional[int]
        height: Optional[int]
        format: Optional[str]
        duration: Optional[int]
        size: Optional[int]
        bitrate: Optional[int]
        persons: List[str]
        player: Optional[model.Player]
        copyright: Optional[str]

    class MMediaContent(msgspec.Struct):
        media: MMedia
        images: List[MImage]

    players = {"JAVA": model.Player.JAVA, "FLASH": model.Player.FLASH, None: None}
    sizes = {"SMALL": model.Size.SMALL, "LARGE": model.Size.LARGE, None: None}

    def create(v):
        m = v["media"]
        return MMediaContent(
            MMedia(m["uri"], m["title"], m["width"], m["height"], m["format"], m["duration"], m["size"], m["bitrate"],
                   list(m["persons"]), players[m["player"]], m["copyright"]),
            [MImage(i["uri"], i["title"], i["width"], i["height"], sizes[i["size"]]) for i in v["images"]])

    codec = msgspec.json if kind == "json" else msgspec.msgpack
    encoder, decoder = codec.Encoder(), codec.Decoder(MMediaContent)
    about = "msgspec %s, msgspec.%s into typed Structs" % (_version("msgspec"), kind)
    # Structs have the plain object's attribute names and enums, so model.touch and model.plain read them.
    return about, create, encoder.encode, decoder.decode, model.touch, model.plain


# ---------------------------------------------------------------------------------------------- the registry

# name: (distributions it needs, factory). The order is the order of the cases.
REGISTRY = [
    ("protobuf", ("protobuf",), _protobuf),
    ("thrift_binary", ("thrift",), lambda: _thrift("binary")),
    ("thrift_compact", ("thrift",), lambda: _thrift("compact")),
    ("pickle", (), _pickle),
    ("json", (), _json),
    ("orjson", ("orjson",), _orjson),
    ("msgspec_json", ("msgspec",), lambda: _msgspec("json")),
    ("msgspec_msgpack", ("msgspec",), lambda: _msgspec("msgpack")),
    ("msgpack", ("msgpack",), _msgpack),
    ("cbor2", ("cbor2",), _cbor2),
    ("fastavro", ("fastavro",), _fastavro),
    ("pyfory", ("pyfory",), _pyfory),
    ("flatbuffers", ("flatbuffers",), _flatbuffers),
]

# The JVM side's names for the formats both sides write (CrossLanguage FORMAT).
CROSS_LANGUAGE = {"protobuf": "protobuf", "thrift-binary": "thrift_binary", "thrift-compact": "thrift_compact",
                  "msgpack": "msgpack", "cbor": "cbor2"}


def names(impl=None):
    """The serializers whose packages are pinned for this implementation (the others do not install on it)."""
    pinned = pylibs.requirements(impl)
    return [name for name, requires, _ in REGISTRY if all(r in pinned for r in requires)]


def unavailable(impl=None):
    pinned = pylibs.requirements(impl)
    return [name for name, requires, _ in REGISTRY if not all(r in pinned for r in requires)]


def load(name):
    """The serializer `name`, its libraries imported; SetupError if they are not installed for this interpreter."""
    for entry, requires, factory in REGISTRY:
        if entry == name:
            if name not in names():
                raise pylibs.SetupError("%s does not install on %s (see requirements/%s); its case runs on %s only"
                                        % (name, pylibs.tag(), pylibs.IMPLS[pylibs.impl_name()][0],
                                           "CPython" if pylibs.impl_name() == "pypy" else "other interpreters"))
            try:
                parts = factory()
            except ImportError as error:
                raise pylibs.SetupError("%s: cannot import %s on %s: run %s %s"
                                        % (name, error, pylibs.tag(), pylibs.BUILD_COMMAND, sys.executable)) from None
            return Serializer(name, requires, *parts)
    raise KeyError(name)
