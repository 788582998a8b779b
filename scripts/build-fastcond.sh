#!/usr/bin/env bash
# Build subjects/fastcond for every CPython 3.x that `versus runtimes` finds, and for the harness's
# venv, into ${VERSUS_CACHE:-~/.cache/versus}/fastcond/cpython-X.Y.Z/ (one folder per interpreter
# version; the gil and threaded-server programs put that folder on sys.path).
#
#   scripts/build-fastcond.sh                 every CPython 3.x found, and .venv/bin/python
#   scripts/build-fastcond.sh PYTHON ...      only these interpreters
#
# Idempotent and quick: an interpreter whose build is up to date (same source, same interpreter,
# same flags, importable) is skipped; "same source" is fastcond.c and the emucond.h it includes.
# Each build compiles the one C file straight with cc and the
# interpreter's own headers (sysconfig), so it needs no setuptools, and it writes nothing into
# subjects/fastcond. A failed build is reported and the others go on; the exit code is 1 if any
# failed, so the experiments' fastcond arms fail loudly rather than run without fastcond.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
source_file=$here/subjects/fastcond/src/fastcond.c
header_file=$here/subjects/fastcond/src/emucond.h  # fastcond.c includes it: the stamp covers both
cache=${VERSUS_CACHE:-$HOME/.cache/versus}
out_root=$cache/fastcond
cc=${CC:-cc}
cflags="-shared -fPIC -O2 -DNDEBUG -fwrapv -pthread -Wall -Wno-missing-field-initializers"

for file in "$source_file" "$header_file"; do
  if [ ! -f "$file" ]; then
    echo "build-fastcond: no $file" >&2
    exit 1
  fi
done

if [ $# -gt 0 ]; then
  pythons=("$@")
else
  pythons=()
  versus=$here/.venv/bin/versus
  if [ -x "$versus" ]; then
    # lines like "  cpython@3.11.7     /root/.pyenv/versions/3.11.7/bin/python  (pyenv)"
    while read -r name path _; do
      case "$name" in cpython@3.*) pythons+=("$path") ;; esac
    done < <("$versus" runtimes 2>/dev/null)
  else
    echo "build-fastcond: no $versus (run make setup); building for python3 on PATH only" >&2
    command -v python3 >/dev/null && pythons+=("$(command -v python3)")
  fi
  [ -x "$here/.venv/bin/python" ] && pythons+=("$here/.venv/bin/python")
fi

digest=$(cat "$source_file" "$header_file" | sha256sum | cut -d' ' -f1)
# One build at a time in this cache (two test processes may run this script at once): the lock is held
# until the script exits.
mkdir -p "$out_root"
exec 9>"$out_root/.lock"
flock 9
status=0
for py in "${pythons[@]}"; do
  info=$("$py" -c 'import sys, sysconfig
if sys.version_info[0] < 3 or sys.implementation.name != "cpython":
    raise SystemExit(1)
print("cpython-%d.%d.%d" % sys.version_info[:3])
print(sysconfig.get_paths()["include"])
print(sysconfig.get_config_var("EXT_SUFFIX"))
print(sys.executable)' 2>/dev/null) || { echo "build-fastcond: skipped $py (not a CPython 3)" >&2; continue; }
  { read -r tag; read -r include; read -r suffix; read -r exe; } <<<"$info"
  dir=$out_root/$tag
  stamp="$digest $cc $cflags $include$suffix"
  if [ -f "$dir/fastcond$suffix" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$stamp" ]; then
    continue  # up to date
  fi
  mkdir -p "$dir"
  tmp=$dir/.fastcond$suffix.$$
  if ! $cc $cflags -I"$include" "$source_file" -o "$tmp" -lm 2>"$dir/build.log"; then
    echo "build-fastcond: $tag ($exe) failed to build; see $dir/build.log" >&2
    rm -f "$tmp"
    status=1
    continue
  fi
  mv -f "$tmp" "$dir/fastcond$suffix"
  if ! "$py" -c 'import sys; sys.path.insert(0, sys.argv[1]); import fastcond
assert fastcond.__file__.startswith(sys.argv[1]), fastcond.__file__
c = fastcond.Condition()
with c:
    c.notify()' "$dir" 2>>"$dir/build.log"; then
    echo "build-fastcond: $tag ($exe) built but does not import; see $dir/build.log" >&2
    rm -f "$dir/.stamp"
    status=1
    continue
  fi
  echo "$stamp" >"$dir/.stamp"
  echo "build-fastcond: built $dir/fastcond$suffix" >&2
done
exit $status
