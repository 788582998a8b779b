"""Import fastcond from the build scripts/build-fastcond.sh made for this interpreter (Python 2.5+ syntax).

The gil and threaded-server programs import it from here (it is part of the fastcond subject, not a
protocol helper): each puts this folder on sys.path, found from its own file."""
import os
import sys


SOURCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
# fastcond.c and the header it includes, in the order scripts/build-fastcond.sh hashes them
SOURCES = [os.path.join(SOURCE_DIR, name) for name in ("fastcond.c", "emucond.h")]


def _check_fresh(folder):
    """A build of an older fastcond.c or emucond.h would measure the old code: refuse it (the stamp starts
    with the sha256 of the two files, concatenated)."""
    if not all([os.path.isfile(path) for path in SOURCES]):
        return
    import hashlib
    sha = hashlib.sha256()
    for path in SOURCES:
        with open(path, "rb") as f:
            sha.update(f.read())
    digest = sha.hexdigest()
    with open(os.path.join(folder, ".stamp")) as f:
        built = (f.read().split() or [""])[0]
    if built != digest:
        raise RuntimeError("the fastcond build in %s is of an older subjects/fastcond/src/fastcond.c or emucond.h: "
                           "run scripts/build-fastcond.sh" % folder)


def load():
    """The fastcond module built for this interpreter's exact version; a clear error if there is none."""
    if sys.version_info[0] < 3 or hasattr(sys, "pypy_version_info"):
        raise RuntimeError("fastcond is built for CPython 3 only")
    tag = "cpython-%d.%d.%d" % tuple(sys.version_info[:3])
    caches = [os.environ.get("VERSUS_CACHE"), os.path.join(os.path.expanduser("~"), ".cache", "versus")]
    folders = [os.path.join(c, "fastcond", tag) for c in caches if c]
    for folder in folders:
        if os.path.isfile(os.path.join(folder, ".stamp")):
            _check_fresh(folder)
            sys.path.insert(0, folder)
            import fastcond
            if not os.path.abspath(fastcond.__file__).startswith(os.path.abspath(folder)):
                raise RuntimeError("imported %s instead of the build in %s" % (fastcond.__file__, folder))
            return fastcond
    raise RuntimeError("fastcond is not built for %s (looked in %s): run scripts/build-fastcond.sh"
                       % (tag, ", ".join(folders)))
