#!/usr/bin/env bash
# Differential test against Neo4j's own jars (neo4j-kernel 1.3 for format A,
# 1.9 for format B): our encode must equal theirs, and our decode of their
# payload must give the original string.
#
#   ./difftest.sh [COUNT]          (default 20000; `make difftest-1m` runs 1,000,000)
#   DIFFTEST_SEED=N ./difftest.sh  (another set of random strings; default seed 24301)
#
# Uses the OSM extracts in $VERSUS_CACHE/osm/ when present (./fetch-data.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
count="${1:-20000}"
cache="${VERSUS_CACHE:-$HOME/.cache/versus}"
work="$cache/shortstring"
m2="${MAVEN_REPO_LOCAL:-$HOME/.m2/repository}"
mkdir -p "$work"

# Pinned jars: SHA-1 is also checked against Maven Central's .sha1 file.
declare -A SHA256=(
  [1.3]=595837c001cee77867e8f1a16b97b6a59b6c2338bbe31a66407807e729695411
  [1.9]=d927034e692e2c4d48d61e65ca46f8014b9c6f69515c0275c890435e10d6c7c0
)
jar() {
  local v="$1" j="$m2/org/neo4j/neo4j-kernel/$1/neo4j-kernel-$1.jar"
  if [[ ! -f "$j" || ! -f "$j.sha1" ]]; then
    # Quiet Maven still prints colour codes: show its output only on failure.
    local log
    log="$(mvn -q -B -C -Dmaven.repo.local="$m2" dependency:get -Dartifact="org.neo4j:neo4j-kernel:$v" -Dtransitive=false 2>&1)" \
      || { echo "$log" >&2; echo "difftest: could not fetch org.neo4j:neo4j-kernel:$v from Maven Central" >&2; exit 1; }
  fi
  local want got
  want="$(cut -c1-40 < "$j.sha1")"
  got="$(sha1sum "$j" | cut -c1-40)"
  [[ "$want" == "$got" ]] || { echo "difftest: $j: SHA-1 $got, Maven Central says $want" >&2; exit 1; }
  got="$(sha256sum "$j" | cut -c1-64)"
  [[ "$got" == "${SHA256[$v]}" ]] || { echo "difftest: $j: SHA-256 $got, pinned ${SHA256[$v]}" >&2; exit 1; }
  echo "$j"
}
jar13="$(jar 1.3)"
jar19="$(jar 1.9)"

# Compile the oracle once per source version.
src="$here/jvm/ShortStringOracle.java"
classes="$work/classes-$(sha256sum "$src" | cut -c1-16)"
if [[ ! -f "$classes/ShortStringOracle.class" ]]; then
  mkdir -p "$classes"
  javac -proc:none -encoding UTF-8 -d "$classes" "$src"
fi

cargo build --release --quiet --features osm --manifest-path "$here/Cargo.toml" --bin difftest
difftest="$here/target/release/difftest"

data=()
for f in "$cache"/osm/*.osm.pbf; do [[ -f "$f" ]] && data+=("$f"); done
tmp="$(mktemp -d "$work/run.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
start=$EPOCHREALTIME
"$difftest" gen "$count" "$tmp/in.txt" --seed "${DIFFTEST_SEED:-24301}" "${data[@]}"
java -Xss4m -cp "$classes" ShortStringOracle "$jar13" "$jar19" "$tmp/in.txt" "$tmp/oracle.txt"
status=0
"$difftest" check "$tmp/in.txt" "$tmp/oracle.txt" || status=$?
end=$EPOCHREALTIME
awk -v n="$count" -v a="$start" -v b="$end" 'BEGIN { printf "difftest: %d strings in %.1f s (generate, both jars, compare)\n", n, b - a }'
exit $status
