"""Measure experiments/condvar without the harness, until the harness has the c family (then use
`versus run condvar`). Builds c/condvar.c with each compiler exactly as the c family will, calibrates
inner once per arm, then runs ROUNDS rounds; each round runs one process of every arm (case ×
compiler) in a fresh random order. Every process's output goes through versus.protocol.parse and its
checks must equal inner.

Per arm: the median over processes of each process's median time per handoff. Per claim: the ratio
of time per handoff, numerator ÷ denominator, in each round (so drift of the machine cancels), their
geometric mean and a 95% Student t interval over the rounds; "holds" when the interval lies above
the claim's min, "does not hold" when it lies below, else "inconclusive".

    .venv/bin/python experiments/condvar/measure.py [--rounds 10] [--samples 5] [--min-sample-ms 100]
"""
from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "src"))

from versus.protocol import Output, parse  # noqa: E402
from versus.stats import t_quantile  # noqa: E402

FLAGS = ["-O2", "-pthread", "-I", str(ROOT / "helpers" / "c"), "-I", str(ROOT / "subjects" / "fastcond" / "src")]


def build(compiler: str, folder: Path) -> Path:
    out = folder / f"condvar-{compiler}"
    subprocess.run([compiler, *FLAGS, str(HERE / "c" / "condvar.c"), "-o", str(out)], check=True)
    return out


def run(binary: Path, case: str, inner: int, warmup: int, samples: int, min_ns: int) -> Output:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERSUS_")}
    env.update(VERSUS_PROTOCOL="1", VERSUS_CASE=case, VERSUS_INNER=str(inner), VERSUS_WARMUP=str(warmup),
               VERSUS_SAMPLES=str(samples), VERSUS_MIN_SAMPLE_NS=str(min_ns))
    done = subprocess.run([str(binary)], env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise SystemExit(f"measure: {binary.name} {case} failed (exit {done.returncode}): {done.stderr.strip()}")
    out = parse(done.stdout, case)
    wanted = [str(s.inner) for s in out.samples]
    if not out.ended or out.checks != wanted:
        raise SystemExit(f"measure: {binary.name} {case}: checks {out.checks} != inner {wanted}")
    return out


def per_handoff_ns(out: Output) -> float:
    return statistics.median(s.ns / s.inner for s in out.samples if not s.warmup)


def metric(outs: list[Output], name: str) -> float:
    return statistics.median(statistics.median(v for n, v, _ in o.metrics if n == name) for o in outs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--min-sample-ms", type=float, default=100)
    ap.add_argument("--compilers", default="gcc,clang")
    args = ap.parse_args()
    experiment = tomllib.loads((HERE / "experiment.toml").read_text())
    cases = [c["name"] for c in experiment["cases"]]
    compilers = args.compilers.split(",")
    min_ns = int(args.min_sample_ms * 1e6)
    started = datetime.datetime.now(datetime.UTC)
    load_before = os.getloadavg()

    with tempfile.TemporaryDirectory() as tmp:
        binaries = {c: build(c, Path(tmp)) for c in compilers}
        arms = [(case, c) for c in compilers for case in cases]
        hello = {c: run(binaries[c], cases[0], 1, 0, 1, 1).hello for c in compilers}
        inner = {}
        for case, c in arms:  # calibrate once per arm, as the harness does
            inner[(case, c)] = run(binaries[c], case, 0, 0, 1, min_ns).samples[0].inner
        outs: dict[tuple[str, str], list[Output]] = {arm: [] for arm in arms}
        for _ in range(args.rounds):
            order = arms[:]
            random.shuffle(order)
            for case, c in order:
                outs[(case, c)].append(run(binaries[c], case, inner[(case, c)], args.warmup, args.samples, min_ns))

    load_after = os.getloadavg()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    print(f"condvar, direct run: {started:%Y-%m-%d %H:%M} UTC, commit {commit}, {cpu}, {os.cpu_count()} cores, "
          f"kernel {platform.release()}, load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"  {args.rounds} rounds × {len(arms)} arms, {args.warmup} warmup + {args.samples} samples of "
          f"≥ {args.min_sample_ms:g} ms per process; " + "; ".join(f"{c}: {hello[c]['impl']}" for c in compilers))
    print()
    print("| case | compiler | inner | handoffs/s (median of processes) | min | max | sleeps/handoff | CPU µs/handoff |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for case, c in arms:
        rates = sorted(1e9 / per_handoff_ns(o) for o in outs[(case, c)])
        print(f"| {case} | {c} | {inner[(case, c)]} | {statistics.median(rates):,.0f} | {rates[0]:,.0f} | "
              f"{rates[-1]:,.0f} | {metric(outs[(case, c)], 'voluntary_switches_per_handoff'):.2f} | "
              f"{metric(outs[(case, c)], 'cpu_ns_per_handoff') / 1000:.1f} |")
    print()
    print("| claim | ratio of time per handoff | 95% interval | bound | verdict |")
    print("| --- | ---: | --- | --- | --- |")
    for claim in experiment["claims"]:
        top, bottom = claim["numerator"], claim["denominator"]
        if top["runtime"] not in compilers:
            continue
        logs = [math.log(per_handoff_ns(a) / per_handoff_ns(b))
                for a, b in zip(outs[(top["case"], top["runtime"])], outs[(bottom["case"], bottom["runtime"])])]
        mean = statistics.fmean(logs)
        half = t_quantile(0.975, len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
        low, high = math.exp(mean - half), math.exp(mean + half)
        bound = claim["min"]
        verdict = "holds" if low > bound else "does not hold" if high < bound else "inconclusive"
        print(f"| {claim['id']} | {math.exp(mean):.2f}× | {low:.2f}–{high:.2f}× | > {bound:g} | {verdict} |")


if __name__ == "__main__":
    main()
