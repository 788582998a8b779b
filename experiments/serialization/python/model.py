"""The value of the experiment and the plain Python object that most serializers carry.

A value (experiments/serialization/data/media-NAME.json) is the 2008 MediaContent as plain JSON:
{"media": {uri, title, width, height, format, duration, size, bitrate, persons, player, copyright},
"images": [{uri, title, width, height, size}]}; null is unset, player and size are enum names. That
parsed JSON, the *plain form*, is what every serializer's object is compared with after a round trip.

The plain object is what a Python program would hold: slotted dataclasses, enums as Enum members.
Pickle, json, orjson, msgpack, cbor2, fastavro and pyfory carry it; protobuf, Thrift and msgspec
carry their own classes (see serializers.py). Python 3.9 syntax (PyPy 3.9), standard library only.
"""
import enum
import json
import os
from dataclasses import dataclass
from typing import List, Optional

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
MEDIA_FIELDS = ("uri", "title", "width", "height", "format", "duration", "size", "bitrate", "persons", "player",
                "copyright")
IMAGE_FIELDS = ("uri", "title", "width", "height", "size")
PLAYERS = ("JAVA", "FLASH")
SIZES = ("SMALL", "LARGE")


class ValueFileError(Exception):
    """A value file that is not a MediaContent."""


class Player(enum.Enum):
    JAVA = "JAVA"
    FLASH = "FLASH"


class Size(enum.Enum):
    SMALL = "SMALL"
    LARGE = "LARGE"


# Declared slots and no defaults: a slotted dataclass that Python 3.9 (PyPy) accepts too.
@dataclass
class Image:
    __slots__ = IMAGE_FIELDS
    uri: str
    title: Optional[str]
    width: Optional[int]
    height: Optional[int]
    size: Optional[Size]


@dataclass
class Media:
    __slots__ = MEDIA_FIELDS
    uri: str
    title: Optional[str]
    width: Optional[int]
    height: Optional[int]
    format: Optional[str]
    duration: Optional[int]
    size: Optional[int]
    bitrate: Optional[int]
    persons: List[str]
    player: Optional[Player]
    copyright: Optional[str]


@dataclass
class MediaContent:
    __slots__ = ("media", "images")
    media: Media
    images: List[Image]


# ---------------------------------------------------------------------------------------------- values

def value_path(name):
    return os.path.join(DATA, "media-%s.json" % name)


def value_names():
    return sorted(f[len("media-"):-len(".json")] for f in os.listdir(DATA)
                  if f.startswith("media-") and f.endswith(".json"))


def load_value(name_or_path):
    """The plain form of a value, by name (standard, 2008, unicode, large) or path; checked for shape."""
    path = name_or_path if os.path.sep in name_or_path or name_or_path.endswith(".json") else value_path(name_or_path)
    if not os.path.isfile(path):
        raise ValueFileError("no value %r (no file %s); the values are: %s" % (name_or_path, path, ", ".join(value_names())))
    with open(path, "rb") as f:
        value = json.loads(f.read().decode("utf-8"))
    check_shape(value, path)
    return value


def check_shape(value, where):
    def need(condition, what):
        if not condition:
            raise ValueFileError("%s is not a MediaContent: %s" % (where, what))
    need(isinstance(value, dict) and sorted(value) == ["images", "media"], 'top level must be {"media", "images"}')
    media = value["media"]
    need(isinstance(media, dict) and sorted(media) == sorted(MEDIA_FIELDS), "media needs exactly %s" % (MEDIA_FIELDS,))
    need(isinstance(media["uri"], str), "media.uri must be a string")
    need(isinstance(media["persons"], list) and all(isinstance(p, str) for p in media["persons"]),
         "media.persons must be a list of strings")
    need(media["player"] in PLAYERS + (None,), "media.player must be one of %s or null" % (PLAYERS,))
    for key in ("title", "format", "copyright"):
        need(media[key] is None or isinstance(media[key], str), "media.%s must be a string or null" % key)
    for key in ("width", "height", "duration", "size", "bitrate"):
        need(media[key] is None or type(media[key]) is int, "media.%s must be an integer or null" % key)
    need(isinstance(value["images"], list), "images must be a list")
    for image in value["images"]:
        need(isinstance(image, dict) and sorted(image) == sorted(IMAGE_FIELDS), "an image needs exactly %s" % (IMAGE_FIELDS,))
        need(isinstance(image["uri"], str), "image.uri must be a string")
        need(image["title"] is None or isinstance(image["title"], str), "image.title must be a string or null")
        need(image["size"] in SIZES + (None,), "image.size must be one of %s or null" % (SIZES,))
        for key in ("width", "height"):
            need(image[key] is None or type(image[key]) is int, "image.%s must be an integer or null" % key)


def diff(got, want, path="value"):
    """The first place where `got` differs from `want` (types too: 640.0 is not 640), or None."""
    if type(got) is not type(want):
        return "%s: got %r (%s), expected %r (%s)" % (path, got, type(got).__name__, want, type(want).__name__)
    if isinstance(want, dict):
        if sorted(got) != sorted(want):
            return "%s: got keys %s, expected %s" % (path, sorted(got), sorted(want))
        for key in want:
            found = diff(got[key], want[key], "%s.%s" % (path, key))
            if found:
                return found
        return None
    if isinstance(want, list):
        if len(got) != len(want):
            return "%s: got %d items, expected %d" % (path, len(got), len(want))
        for index, (g, w) in enumerate(zip(got, want)):
            found = diff(g, w, "%s[%d]" % (path, index))
            if found:
                return found
        return None
    if got != want:
        return "%s: got %r, expected %r" % (path, got, want)
    return None


def digest(value):
    """What every serializer's touch() must return for this value: string lengths + integers + 7 per set field.

    A cheap per-iteration witness that deserialize read every field; the full comparison (diff) runs once
    per sample, outside the timed loops."""
    total = 0
    media = value["media"]
    records = [(media, MEDIA_FIELDS)] + [(image, IMAGE_FIELDS) for image in value["images"]]
    for record, fields in records:
        for key in fields:
            item = record[key]
            if item is None:
                continue
            total += 7
            if key == "persons":
                total += sum(len(p) for p in item)
            elif key in ("player",) or (key == "size" and fields is IMAGE_FIELDS):
                pass  # an enum: counted as set
            elif isinstance(item, str):
                total += len(item)
            else:
                total += item
    return total


# ---------------------------------------------------------------------------------------------- the plain object

_PLAYER = {"JAVA": Player.JAVA, "FLASH": Player.FLASH, None: None}
_SIZE = {"SMALL": Size.SMALL, "LARGE": Size.LARGE, None: None}


def create(v):
    """The plain object from the plain form (also what dict-based codecs decode into)."""
    m = v["media"]
    return MediaContent(
        Media(m["uri"], m["title"], m["width"], m["height"], m["format"], m["duration"], m["size"], m["bitrate"],
              list(m["persons"]), _PLAYER[m["player"]], m["copyright"]),
        [Image(i["uri"], i["title"], i["width"], i["height"], _SIZE[i["size"]]) for i in v["images"]])


def to_dict(c):
    """The plain form of a plain object: maps with the value files' field names, enums by name, None kept."""
    m = c.media
    player = m.player
    return {
        "media": {"uri": m.uri, "title": m.title, "width": m.width, "height": m.height, "format": m.format,
                  "duration": m.duration, "size": m.size, "bitrate": m.bitrate, "persons": m.persons,
                  "player": None if player is None else player.value, "copyright": m.copyright},
        "images": [{"uri": i.uri, "title": i.title, "width": i.width, "height": i.height,
                    "size": None if i.size is None else i.size.value} for i in c.images],
    }


def plain(c):
    """to_dict with its own lists, for comparing."""
    out = to_dict(c)
    persons = out["media"]["persons"]
    out["media"]["persons"] = None if persons is None else list(persons)  # None stays None: the check names it
    return out


def touch(c):
    """Read every field of a plain object (or of any object with the same attribute names and enums with .value)."""
    m = c.media
    return touch_parts(m, m.persons, c.images)


def touch_parts(m, persons, images):
    """touch() for objects whose lists have other names (Thrift's person and image): the media, its persons and
    the images, each read field by field; None for a list is an empty one (Thrift leaves an empty list unset)."""
    n = len(m.uri)
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
    for p in persons or ():
        n += len(p)
    if m.player is not None:
        n += 7
    s = m.copyright
    if s is not None:
        n += 7 + len(s)
    for i in images or ():
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
    return n + 7  # media.uri
