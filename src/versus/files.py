"""How versus touches files it does not own: it writes beside the database without following links,
and reads the files it is given within bounds.

- `write_file`: the text goes to a new file in the target's folder, which then replaces the target's
  name. A symbolic link (or a hard link) planted at the name is replaced, never written through, and a
  reader never sees half a report.
- `real_folder`: a folder versus writes into beside the database (`session-N/`) must be a folder,
  not a link to one elsewhere.
- `read_bounded`: a regular file only (not a FIFO, a device or `/dev/zero`), at most `limit` bytes,
  and a gzip file at most `limit` bytes once decompressed: a small file that expands to gigabytes is
  refused, not read into memory.
"""
from __future__ import annotations

import contextlib
import errno
import gzip
import io
import os
import stat
import zlib
from pathlib import Path

from .errors import UsageError, VersusError

_LINK_HINT = "remove the link or move it aside: versus never writes through a symbolic link beside its database"


def deeper_than(value: object, limit: int) -> bool:
    """Whether parsed data (JSON, TOML) nests lists and tables more than `limit` deep. Iterative, so
    that no depth exhausts the stack; code that walks the data recursively later is safe within it."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def text_of(data: bytes, path: Path, what: str) -> str:
    """UTF-8 text, or an error that names what the bytes are instead (a BOM, UTF-16, another encoding)."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise UsageError(f"{path} starts with a byte-order mark", f"save the {what} as UTF-8 without a BOM")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(data) > 1 and data.count(b"\0") > len(data) // 4):
        raise UsageError(f"{path} is UTF-16 text, not UTF-8", f"save the {what} as UTF-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise UsageError(f"{path} is not UTF-8 text: byte 0x{data[error.start]:02x} on line {line} (Latin-1 or "
                         "another encoding?)", f"save the {what} as UTF-8") from None


def real_folder(folder: Path) -> None:
    """Make `folder` (and its parents) unless it exists; refuse it when it is a symbolic link."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        pass  # a link to a folder that is gone, or a file: said below
    if folder.is_symlink():
        raise VersusError(f"{folder} is a symbolic link", _LINK_HINT)
    if not folder.is_dir():
        raise VersusError(f"{folder} is not a folder", "move the file aside, or give another --db")


def write_file(target: Path, data: str | bytes) -> None:
    """Write `data` to a fresh file beside `target`, then rename it over `target` (raises OSError)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent
    folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for attempt in range(100):
            name = f".{target.name}.{os.getpid()}.{attempt}.tmp"
            try:
                # O_EXCL: fails on any existing name, a link included, so nothing is written through one
                fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644,
                             dir_fd=folder_fd)
                break
            except FileExistsError:
                continue
        else:
            raise OSError(errno.EEXIST, f"no free temporary name beside {target}")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
            os.replace(name, target.name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=folder_fd)
            raise
    finally:
        os.close(folder_fd)


def read_bounded(path: Path, limit: int, what: str = "file") -> bytes:
    """A regular file's bytes, gunzipped when it ends in .gz; either larger than `limit` is refused."""
    try:
        # O_NONBLOCK: opening a FIFO nobody writes to returns at once (and is refused below), not never
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}", "check the path") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{path} is not a regular file", f"give the {what} itself, saved to a file")
        if info.st_size > limit:
            raise UsageError(f"{path} is {info.st_size / 2**20:.0f} MiB, more than the {limit >> 20} MiB a {what} "
                             "may be", f"split it, or give a smaller {what}")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            raw = handle.read(limit + 1)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}", "check the path") from None
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise UsageError(f"{path} is more than the {limit >> 20} MiB a {what} may be", f"give a smaller {what}")
    if path.suffix != ".gz":
        return raw
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as unzipped:
            data = unzipped.read(limit + 1)  # never more than this in memory, however well it compresses
    except (OSError, EOFError, zlib.error) as error:  # gzip.BadGzipFile is an OSError
        raise UsageError(f"{path} is not a valid gzip file: {str(error)[:120]}",
                         f"give the {what} as written, or without .gz if it is not compressed") from None
    if len(data) > limit:
        raise UsageError(f"{path} expands to more than the {limit >> 20} MiB a {what} may be",
                         f"give a smaller {what}")
    return data
