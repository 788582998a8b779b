#!/bin/sh
# Build fastcond and run its tests on every pyenv CPython 3.x and on pypy3.
# Prints a Markdown table; logs go to check-builds.log/<tag>.log.
#   ./check-builds.sh [python ...]
cd "$(dirname "$0")" || exit 1
mkdir -p check-builds.log
if [ $# -eq 0 ]; then
  set -- $(ls -d /root/.pyenv/versions/3.*/bin/python3 2>/dev/null | sort -V) \
         $(command -v pypy3)
fi
# PyPy's C headers come in Debian's pypy3-dev, its test.lock_tests in
# pypy3-lib-testsuite
if command -v pypy3 >/dev/null && { ! ls /usr/include/pypy3*/Python.h >/dev/null 2>&1 \
   || ! pypy3 -c 'import test.lock_tests' 2>/dev/null; }; then
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
       apt-get install -y -qq pypy3-dev pypy3-lib-testsuite) >&2
  else
    echo "check-builds: for PyPy: sudo apt-get install pypy3-dev pypy3-lib-testsuite" >&2
  fi
fi
summary() {  # last pytest summary line of a log, or the reason it has none
  grep -E '(passed|failed|error|skipped|no tests ran)' "$1" | grep -E ' in [0-9.]+s' | tail -1 \
    | sed 's/=//g; s/^ *//; s/ *$//'
}
echo "| interpreter | build | lock tests + test_queue (patched) | stress, timing, SIGINT, leaks |"
echo "| --- | --- | --- | --- |"
for py in "$@"; do
  ver=$("$py" -c 'import sys, platform; print("%s %s" % (platform.python_implementation(), platform.python_version()))' 2>/dev/null) || continue
  tag=$(echo "$ver" | tr ' ' '-')
  log=check-builds.log/$tag
  if make --no-print-directory build PYTHON="$py" >"$log.build.log" 2>&1; then
    build=yes
    make --no-print-directory repeat REPEAT=1 PYTHON="$py" >"$log.lock.log" 2>&1
    lock=$(summary "$log.lock.log"); [ -n "$lock" ] || lock="did not run (see log)"
    case "$ver" in  # cpyext is slow here and its memory grows: a shorter stress
      PyPy*) items=20000 ;; *) items=100000 ;; esac
    FASTCOND_STRESS_ITEMS=$items \
      make --no-print-directory test-other PYTHON="$py" >"$log.other.log" 2>&1
    other=$(summary "$log.other.log"); [ -n "$other" ] || other="did not run (see log)"
  else
    build="no: $(grep -E 'error' "$log.build.log" | grep -v '^ *$' | head -1 | cut -c1-80)"
    lock="-"; other="-"
  fi
  echo "| $ver | $build | $lock | $other |"
done
