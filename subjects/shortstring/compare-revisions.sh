#!/usr/bin/env bash
# Compares the codec at two git revisions on the strings experiment's codec cases:
# builds the experiment's Rust program at each revision (in a temporary worktree),
# then runs them interleaved, ROUNDS times each, and prints the fastest pass of each
# in µs with its ratio to the first revision. The minimum is what a noisy shared
# machine distorts least; for a claim with a CI, use `versus run strings`.
#
#   ./compare-revisions.sh REV_A REV_B [CASES] [MODES] [DATASETS]
#   e.g. ./compare-revisions.sh HEAD~1 HEAD encode,decode short13,b19 monaco,helsinki
#
# ROUNDS (default 5), SAMPLES (8) and INNER (100 passes per sample) tune the run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(git -C "$here" rev-parse --show-toplevel)"
if [[ $# -lt 2 ]]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
rev_a="$1" rev_b="$2"
cases="${3:-encode,decode}" modes="${4:-short13,b19}" datasets="${5:-monaco,helsinki,delaware}"
rounds="${ROUNDS:-5}" samples="${SAMPLES:-8}" inner="${INNER:-100}"
work="$(mktemp -d)"
trap 'git -C "$repo" worktree remove --force "$work/a" >/dev/null 2>&1 || true;
      git -C "$repo" worktree remove --force "$work/b" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

build() {  # REV DIR -> path of the built program
  git -C "$repo" rev-parse --verify --quiet "$1^{commit}" >/dev/null \
    || { echo "compare-revisions: $1 is not a revision of this repository (try HEAD~1 or a commit hash)" >&2; exit 2; }
  git -C "$repo" worktree add --quiet --detach "$2" "$1"
  cargo build --quiet --release --manifest-path "$2/experiments/strings/rust/Cargo.toml" \
    --target-dir "$work/target-$(basename "$2")" >&2
  echo "$work/target-$(basename "$2")/release/strings"
}
bin_a="$(build "$rev_a" "$work/a")"
bin_b="$(build "$rev_b" "$work/b")"

fastest() {  # BIN CASE MODE DATASET -> µs of the fastest pass
  VERSUS_PROTOCOL=1 VERSUS_CASE="$2" VERSUS_PARAM_MODE="$3" VERSUS_PARAM_DATASET="$4" \
    VERSUS_WARMUP=1 VERSUS_SAMPLES="$samples" VERSUS_INNER="$inner" "$1" \
    | python3 -c '
import json, sys
events = [json.loads(l.split(" ", 1)[1]) for l in sys.stdin if l.startswith("@versus ")]
ns = [e["ns"] for e in events if e.get("type") == "sample" and not e.get("warmup")]
if not ns:
    sys.exit("compare-revisions: the program printed no samples")
print(min(ns) / int(sys.argv[1]) / 1000)' "$inner"
}

printf '%-8s %-8s %-9s %12s %12s %8s\n' case mode dataset "$rev_a µs" "$rev_b µs" "b ÷ a"
for case in ${cases//,/ }; do
  for mode in ${modes//,/ }; do
    for dataset in ${datasets//,/ }; do
      a=inf b=inf
      for _ in $(seq "$rounds"); do
        a="$(python3 -c 'import sys; print(min(float(sys.argv[1]), float(sys.argv[2])))' "$a" "$(fastest "$bin_a" "$case" "$mode" "$dataset")")"
        b="$(python3 -c 'import sys; print(min(float(sys.argv[1]), float(sys.argv[2])))' "$b" "$(fastest "$bin_b" "$case" "$mode" "$dataset")")"
      done
      python3 -c 'import sys; c,m,d,a,b=sys.argv[1:]; print(f"{c:<8} {m:<8} {d:<9} {float(a):12.1f} {float(b):12.1f} {float(b)/float(a):8.3f}")' \
        "$case" "$mode" "$dataset" "$a" "$b"
    done
  done
done
