#!/usr/bin/env bash
# Install the serialization experiment's Python serializers (pinned) and the code protoc and Thrift
# generate from experiments/serialization/schema/, per interpreter, into
# ${VERSUS_CACHE:-~/.cache/versus}/pylibs/serialization/<impl>-<version>/ (see
# experiments/serialization/python/build.py).
#
#   scripts/serialization-python-deps.sh              CPython 3.11 and 3.13 and PyPy 3.9 (as `versus runtimes` finds them)
#   scripts/serialization-python-deps.sh PYTHON ...   only these interpreters
#
# Idempotent and quick when up to date. A failed interpreter is reported and the others go on; the exit
# code is then 1 and that interpreter's serialization arms fail, saying to run this script.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
python=$here/.venv/bin/python
if [ ! -x "$python" ]; then
  echo "serialization-python-deps: no $python: run make setup first" >&2
  exit 1
fi
exec "$python" "$here/experiments/serialization/python/build.py" "$@"
