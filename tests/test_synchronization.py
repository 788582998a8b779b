"""The synchronization experiment end to end, tiny: every program on the oldest and newest runtime of
its family, through the harness, with every check verified. An integration test that is itself a
tiny benchmark."""
from __future__ import annotations

import json

import pytest

from versus.cli import main

RUNTIMES = "cpython@2.7,cpython@3.13,pypy@3.9,jython@2.5.0,jython@2.7.4,cruby@3.1,jruby@1.0,java@17"
# The programs' own warm-up (warmup_calls) is not an experiment parameter: it keeps the original's 20,000
# calls (Python, Java) or 10 × 10,000 (Ruby), a fraction of a second on every runtime.
SMALL = ["--param", "tasks=3", "--param", "calls=500"]


@pytest.mark.slow
def test_every_program_runs_and_checks_on_old_and_new_runtimes(db, capsys):
    code = main(["run", "synchronization", "--runtimes", RUNTIMES, "--processes", "1", "--warmup", "1",
                 "--samples", "1", "--db", str(db), "--format", "json", *SMALL])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    assert doc["failed_runs"] == []
    measured = {(a["case"], a["runtime"].split("/")[0]) for a in doc["arms"] if a["processes_ok"] == 1}
    runtimes = {a["runtime"].split("/")[0] for a in doc["arms"]}
    if "pypy@3.9.16" not in runtimes:
        pytest.fail("pypy3 is missing: make setup installs it (apt-get install pypy3)")
    for runtime in runtimes:
        cases = {c for c, r in measured if r == runtime}
        expected = {"adder", "counting_adder", "synchronized_counting_adder", "uncontended_synchronized_counting_adder"}
        if not runtime.startswith("cruby"):
            expected.add("atomic_counting_adder")
        if runtime.startswith("java"):
            expected.add("lock_counting_adder")
        assert cases == expected, runtime
    lost = [a["metrics"]["lost_updates"] for a in doc["arms"] if a["case"] == "counting_adder"]
    assert lost and all(m["unit"] == "count" and m["value"] >= 0 for m in lost)


@pytest.mark.slow
def test_the_cold_case_runs_on_c1_with_empty_warmup_samples(db, capsys):
    """synchronized_counting_adder_cold: Jython on C1 only, its warmup samples make no call (one empty
    iteration, no check), and its measured samples check the counter."""
    code = main(["run", "synchronization", "--runtimes", "jython@2.5.0+c1/java@17", "--cases",
                 "synchronized_counting_adder_cold", "--processes", "1", "--warmup", "1", "--samples", "1",
                 "--db", str(db), "--format", "json", *SMALL])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    assert doc["failed_runs"] == []
    [arm] = doc["arms"]
    assert (arm["case"], arm["processes_ok"]) == ("synchronized_counting_adder_cold", 1)
    assert "+c1" in arm["runtime"]
    claims = {c["id"]: c for c in doc["claims"]}
    assert claims["with-redesign-client-20x"]["verdict"] == "not measured"  # 2.5.0 alone: no pair


def test_every_new_claim_names_its_cases():
    """The claims of issue 13 exist with their bounds, on cases the programs list."""
    from versus import experiment

    loaded = experiment.load(experiment.find("synchronization"))
    claims = {c.id: c for c in loaded.claims}
    bounds = {i: (claims[i].min, claims[i].max) for i in (
        "contention-jruby-10x", "contention-jython-100x", "uncontended-jython-slower", "atomic-after-redesign",
        "with-redesign-client-20x", "with-redesign-server-50x")}
    assert bounds == {"contention-jruby-10x": (5, 20), "contention-jython-100x": (50, None),
                      "uncontended-jython-slower": (1, None), "atomic-after-redesign": (1, None),
                      "with-redesign-client-20x": (18, None), "with-redesign-server-50x": (50, None)}
    assert claims["with-redesign-client-20x"].numerator.runtime.endswith("+c1")
    assert claims["with-redesign-client-20x"].numerator.case == "synchronized_counting_adder_cold"
