#!/usr/bin/env bash
# Debian packages that versus's experiments use. Missing ones are installed when we are root;
# otherwise we print the command and go on: the run says which runtimes it had to leave out.
set -u
wanted=(pypy3 ruby maven hyperfine wrk apache2-utils python3-dev clang thrift-compiler flatbuffers-compiler fonts-dejavu-core)
wanted+=(chromium)  # headless, for tests/test_html.py: the HTML report checked in a real browser
wanted+=(postgresql iproute2)  # a team's lab (docs/fleet.md): make test starts a throwaway server, its workers in network namespaces
missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "versus: installing ${missing[*]} with apt-get" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null 2>&1 \
    || echo "versus: note: apt-get could not install ${missing[*]}; runs go on without them" >&2
else
  echo "versus: note: missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}" >&2
fi
exit 0
