"""The Python serializers of the serialization experiment, each as five plain functions.

    create(plain form) -> object         build the serializer's object from already-parsed values
    serialize(object) -> bytes
    deserialize(bytes) -> object         the full object: dict-based codecs build the plain object
    touch(object) -> int                 read every field (with presence); returns model.digest(value)
    plain(object) -> plain form          for comparing with the value, outside the timed loops
    read_two(bytes) -> (str, str)        only where the format reads lazily or in place (protobuf, FlatBuffers,
                                         Cap'n Proto): media.uri and the first image's uri, nothing else decoded

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
    def __init__(self, name, requires, about, create, serialize, deserialize, touch, plain, read_two=None):
        self.name = name
        self.requires = requires  # distributions in requirements/*.txt
        self.about = about  # library, version and implementation, for the process log
        self.create = create
        self.serialize = serialize
        self.deserialize = deserialize
        self.touch = touch
        self.plain = plain
        self.read_two = read_two  # None: the format has no partial access


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

    def read_two(data):
        c = MC.FromString(data)
        return c.media.uri, c.image[0].uri

    about = "protobuf %s (%s implementation), proto2 classes from schema/media.proto" % (
        _version("protobuf"), api_implementation.Type())
    return about, create, serialize, deserialize, touch, plain, read_two


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
    touch_parts = model.touch_parts
    MC, Media, Image = tt.MediaContent, tt.Media, tt.Image
    players = {"JAVA": tt.Player.JAVA, "FLASH": tt.Player.FLASH, None: None}
    sizes = {"SMALL": tt.Size.SMALL, "LARGE": tt.Size.LARGE, None: None}
    player_names = dict(tt.Player._VALUES_TO_NAMES)
    size_names = dict(tt.Size._VALUES_TO_NAMES)

    def create(v):
        m = v["media"]
        # An empty list stays unset, as the JVM's generated classes leave it (addTo* never called): same bytes.
        return MC(image=[Image(i["uri"], i["title"], i["width"], i["height"], sizes[i["size"]])
                         for i in v["images"]] or None,
                  media=Media(m["uri"], m["title"], m["width"], m["height"], m["format"], m["duration"], m["size"],
                              m["bitrate"], list(m["persons"]) or None, players[m["player"]], m["copyright"]))

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
        return touch_parts(m, m.person, c.image)

    def plain(c):
        m = c.media
        return {"media": {"uri": m.uri, "title": m.title, "width": m.width, "height": m.height, "format": m.format,
                          "duration": m.duration, "size": m.size, "bitrate": m.bitrate,
                          "persons": list(m.person or ()),
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


def _pyfory_xlang(compatible):
    """pyfory in xlang mode: the structs of the JVM's serialization.now.ForyXlang, declared with Java's types
    (Integer = pyfory.Int32, Long = pyfory.Int64, both Fory's varints; nullable where Java says @Nullable; list
    elements Optional, as Java's List<T> elements are nullable) and registered by the same names."""
    from dataclasses import dataclass

    import pyfory

    namespace = "versus.serialization"

    @dataclass
    class XImage:
        uri: str
        title: Optional[str]
        width: Optional[pyfory.Int32]
        height: Optional[pyfory.Int32]
        size: Optional[model.Size]

    @dataclass
    class XMedia:
        uri: str
        title: Optional[str]
        width: Optional[pyfory.Int32]
        height: Optional[pyfory.Int32]
        format: Optional[str]
        duration: Optional[pyfory.Int64]
        size: Optional[pyfory.Int64]
        bitrate: Optional[pyfory.Int32]
        persons: List[Optional[str]]
        player: Optional[model.Player]
        copyright: Optional[str]

    @dataclass
    class XMediaContent:
        # No type info before the nested struct (dynamic=False), as Java writes it for its final class; pyfory's
        # default writes one, which Java's schema-consistent reader does not expect.
        media: XMedia = pyfory.field(dynamic=False)
        images: List[Optional[XImage]]

    fory = pyfory.Fory(xlang=True, ref=False, compatible=compatible)
    for cls, name in ((XMediaContent, "MediaContent"), (XMedia, "Media"), (XImage, "Image"), (model.Player, "Player"),
                      (model.Size, "Size")):
        fory.register(cls, name="%s.%s" % (namespace, name))
    players = {"JAVA": model.Player.JAVA, "FLASH": model.Player.FLASH, None: None}
    sizes = {"SMALL": model.Size.SMALL, "LARGE": model.Size.LARGE, None: None}

    def create(v):
        m = v["media"]
        return XMediaContent(
            XMedia(m["uri"], m["title"], m["width"], m["height"], m["format"], m["duration"], m["size"], m["bitrate"],
                   list(m["persons"]), players[m["player"]], m["copyright"]),
            [XImage(i["uri"], i["title"], i["width"], i["height"], sizes[i["size"]]) for i in v["images"]])

    about = "pyfory %s, xlang mode (%s), the structs registered by name as on the JVM" % (
        _version("pyfory"), "compatible" if compatible else "schema-consistent")
    # The structs have the plain object's attribute names and enums, so model.touch and model.plain read them.
    return about, create, fory.serialize, fory.deserialize, model.touch, model.plain


def _ujson():
    import ujson

    to_dict, create, loads = model.to_dict, model.create, ujson.loads
    dumps = ujson.dumps

    def serialize(c):
        # ensure_ascii off: UTF-8 as the other JSON codecs write it (ujson escapes non-ASCII by default).
        return dumps(to_dict(c), ensure_ascii=False, escape_forward_slashes=False).encode("utf-8")

    def deserialize(data):
        return create(loads(data))

    about = "ujson %s, compact UTF-8, through dicts" % _version("ujson")
    return about, model.create, serialize, deserialize, model.touch, model.plain


def _pydantic():
    from typing import List as TList

    import pydantic

    class PImage(pydantic.BaseModel):
        uri: str
        title: Optional[str]
        width: Optional[int]
        height: Optional[int]
        size: Optional[model.Size]

    class PMedia(pydantic.BaseModel):
        uri: str
        title: Optional[str]
        width: Optional[int]
        height: Optional[int]
        format: Optional[str]
        duration: Optional[int]
        size: Optional[int]
        bitrate: Optional[int]
        persons: TList[str]
        player: Optional[model.Player]
        copyright: Optional[str]

    class PMediaContent(pydantic.BaseModel):
        media: PMedia
        images: TList[PImage]

    players = {"JAVA": model.Player.JAVA, "FLASH": model.Player.FLASH, None: None}
    sizes = {"SMALL": model.Size.SMALL, "LARGE": model.Size.LARGE, None: None}

    def create(v):
        m = v["media"]
        return PMediaContent(
            media=PMedia(uri=m["uri"], title=m["title"], width=m["width"], height=m["height"], format=m["format"],
                         duration=m["duration"], size=m["size"], bitrate=m["bitrate"], persons=list(m["persons"]),
                         player=players[m["player"]], copyright=m["copyright"]),
            images=[PImage(uri=i["uri"], title=i["title"], width=i["width"], height=i["height"], size=sizes[i["size"]])
                    for i in v["images"]])

    def serialize(c):
        return c.model_dump_json().encode("utf-8")

    validate = PMediaContent.model_validate_json

    about = "pydantic %s (pydantic-core %s), model_dump_json / model_validate_json, validated models" % (
        _version("pydantic"), _version("pydantic-core"))
    # The models have the plain object's attribute names and enums, so model.touch and model.plain read them.
    return about, create, serialize, validate, model.touch, model.plain


# ---------------------------------------------------------------------------------------------- FlatBuffers

def _flatbuffers():
    """The modules Debian's flatc generates from schema/media.fbs (build.py writes them into gen/, as the
    JVM's build does its Java): optional scalars (`= null`) are absent when unset. serialize builds the
    buffer from the plain object; deserialize copies every field out into a plain object (the JVM side's
    "full object"; FlatBuffers' own strength, reading a few fields in place, is not what this case measures)."""
    import flatbuffers
    from serialization.flatbuffers import Image as FImage
    from serialization.flatbuffers import Media as FMedia
    from serialization.flatbuffers import MediaContent as FMediaContent

    size_codes = {model.Size.SMALL: 0, model.Size.LARGE: 1, None: None}
    player_codes = {model.Player.JAVA: 0, model.Player.FLASH: 1, None: None}
    sizes, players = (model.Size.SMALL, model.Size.LARGE), (model.Player.JAVA, model.Player.FLASH)
    Builder, Image, Media, MediaContent = flatbuffers.Builder, model.Image, model.Media, model.MediaContent
    root_as = FMediaContent.MediaContent.GetRootAs

    def serialize(c):
        b = Builder(512)
        images = []
        for i in c.images:
            uri = b.CreateString(i.uri)
            title = None if i.title is None else b.CreateString(i.title)
            FImage.Start(b)
            FImage.AddUri(b, uri)
            if title is not None:
                FImage.AddTitle(b, title)
            FImage.AddWidth(b, i.width)
            FImage.AddHeight(b, i.height)
            FImage.AddSize(b, size_codes[i.size])
            images.append(FImage.End(b))
        FMediaContent.StartImageVector(b, len(images))
        for offset in reversed(images):
            b.PrependUOffsetTRelative(offset)
        image_vector = b.EndVector()
        m = c.media
        uri = b.CreateString(m.uri)
        title = None if m.title is None else b.CreateString(m.title)
        fmt = None if m.format is None else b.CreateString(m.format)
        persons = [b.CreateString(p) for p in m.persons]
        FMedia.StartPersonVector(b, len(persons))
        for offset in reversed(persons):
            b.PrependUOffsetTRelative(offset)
        person_vector = b.EndVector()
        copyright = None if m.copyright is None else b.CreateString(m.copyright)
        FMedia.Start(b)
        FMedia.AddUri(b, uri)
        if title is not None:
            FMedia.AddTitle(b, title)
        FMedia.AddWidth(b, m.width)
        FMedia.AddHeight(b, m.height)
        if fmt is not None:
            FMedia.AddFormat(b, fmt)
        FMedia.AddDuration(b, m.duration)
        FMedia.AddSize(b, m.size)
        FMedia.AddBitrate(b, m.bitrate)
        FMedia.AddPerson(b, person_vector)
        FMedia.AddPlayer(b, player_codes[m.player])
        if copyright is not None:
            FMedia.AddCopyright(b, copyright)
        media = FMedia.End(b)
        FMediaContent.Start(b)
        FMediaContent.AddImage(b, image_vector)
        FMediaContent.AddMedia(b, media)
        b.Finish(FMediaContent.End(b))
        return bytes(b.Output())

    def text(raw):
        return None if raw is None else raw.decode("utf-8")

    def deserialize(data):
        root = root_as(data, 0)
        images = []
        for k in range(root.ImageLength()):
            i = root.Image(k)
            size = i.Size()
            images.append(Image(text(i.Uri()), text(i.Title()), i.Width(), i.Height(),
                                None if size is None else sizes[size]))
        m = root.Media()
        persons = [m.Person(k).decode("utf-8") for k in range(m.PersonLength())]
        player = m.Player()
        media = Media(text(m.Uri()), text(m.Title()), m.Width(), m.Height(), text(m.Format()), m.Duration(),
                      m.Size(), m.Bitrate(), persons, None if player is None else players[player], text(m.Copyright()))
        return MediaContent(media, images)

    def read_two(data):
        root = root_as(data, 0)
        return root.Media().Uri().decode("utf-8"), root.Image(0).Uri().decode("utf-8")

    about = "flatbuffers %s (Python runtime), modules flatc generated from schema/media.fbs, copied out into the plain object" % (
        _version("flatbuffers"))
    return about, model.create, serialize, deserialize, model.touch, model.plain, read_two


def _pycapnp():
    """Cap'n Proto through pycapnp, schema/media.capnp loaded at run time (pycapnp needs no generated code).
    Presence: a Text field that is unset is a null pointer (""  is not); a number or enum that may be unset
    is a union of `unset :Void` and its value. deserialize reads the message and copies every field out into
    a plain object, as the FlatBuffers case does (and jvm-serializers did for both)."""
    import capnp

    schema = capnp.load(os.path.join(pylibs.SCHEMA, "media.capnp"))
    MC = schema.MediaContent
    Image, Media, MediaContent = model.Image, model.Media, model.MediaContent
    sizes, players = (model.Size.SMALL, model.Size.LARGE), (model.Player.JAVA, model.Player.FLASH)
    size_names = {model.Size.SMALL: "small", model.Size.LARGE: "large"}
    player_names = {model.Player.JAVA: "java", model.Player.FLASH: "flash"}

    def optional(group, value):
        if value is None:
            group.unset = None
        else:
            group.value = value

    def serialize(c):
        message = MC.new_message()
        images = message.init("image", len(c.images))
        for k, i in enumerate(c.images):
            target = images[k]
            target.uri = i.uri
            if i.title is not None:
                target.title = i.title
            optional(target.width, i.width)
            optional(target.height, i.height)
            optional(target.size, None if i.size is None else size_names[i.size])
        m = c.media
        media = message.init("media")
        media.uri = m.uri
        if m.title is not None:
            media.title = m.title
        optional(media.width, m.width)
        optional(media.height, m.height)
        if m.format is not None:
            media.format = m.format
        optional(media.duration, m.duration)
        optional(media.size, m.size)
        optional(media.bitrate, m.bitrate)
        persons = media.init("person", len(m.persons))
        for k, p in enumerate(m.persons):
            persons[k] = p
        optional(media.player, None if m.player is None else player_names[m.player])
        if m.copyright is not None:
            media.copyright = m.copyright
        return message.to_bytes()

    def value(group):
        return None if group.which() == "unset" else group.value

    def deserialize(data):
        with MC.from_bytes(data) as message:
            images = []
            for i in message.image:
                size = value(i.size)
                images.append(Image(i.uri, i.title if i._has("title") else None, value(i.width), value(i.height),
                                    None if size is None else sizes[size.raw]))
            m = message.media
            player = value(m.player)
            media = Media(m.uri, m.title if m._has("title") else None, value(m.width), value(m.height),
                          m.format if m._has("format") else None, value(m.duration), value(m.size), value(m.bitrate),
                          list(m.person), None if player is None else players[player.raw],
                          m.copyright if m._has("copyright") else None)
            return MediaContent(media, images)

    def read_two(data):
        with MC.from_bytes(data) as message:
            return message.media.uri, message.image[0].uri

    about = "pycapnp %s (Cap'n Proto C++), schema/media.capnp, unpacked; copied out into the plain object" % (
        _version("pycapnp"))
    return about, model.create, serialize, deserialize, model.touch, model.plain, read_two


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
    ("pyfory_xlang", ("pyfory",), lambda: _pyfory_xlang(True)),
    ("pyfory_xlang_consistent", ("pyfory",), lambda: _pyfory_xlang(False)),
    ("flatbuffers", ("flatbuffers",), _flatbuffers),
    ("pycapnp", ("pycapnp",), _pycapnp),
    ("ujson", ("ujson",), _ujson),
    ("pydantic", ("pydantic", "pydantic-core"), _pydantic),
]

# The JVM side's names for the formats both sides write (CrossLanguage FORMAT).
CROSS_LANGUAGE = {"protobuf": "protobuf", "thrift-binary": "thrift_binary", "thrift-compact": "thrift_compact",
                  "msgpack": "msgpack", "cbor": "cbor2", "avro": "fastavro", "flatbuffers": "flatbuffers",
                  "fory-xlang": "pyfory_xlang", "fory-xlang-consistent": "pyfory_xlang_consistent"}


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
