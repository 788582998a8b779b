"""The dispatch experiment end to end, tiny: every JMH case once with the JIT (JDK 17) and once under
-Xint (JDK 25), through the jmh driver, with every counter check verified."""
from __future__ import annotations

import json
import shutil

import pytest

from versus.cli import main

CASES = ["direct_static", "interface_call", "reflect_new_array", "reflect_shared_array", "handle_static_final",
         "handle_field", "lambda_metafactory"]


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("mvn"), reason="Maven is not installed (make setup installs it)")
def test_every_case_runs_and_checks_with_the_jit_and_interpreted(db, capsys, monkeypatch):
    # JMH refuses to start while another JMH on the machine holds /tmp/jmh.lock (a shared CI host, or
    # other test sessions); versus runs one process at a time itself, so the lock is not needed here.
    monkeypatch.setenv("JAVA_TOOL_OPTIONS", "-Djmh.ignoreLock=true")
    code = main(["run", "dispatch", "--runtimes", "java@17,java@25+int", "--processes", "1", "--warmup", "1",
                 "--samples", "1", "--param", "iteration_ms=20", "--db", str(db), "--format", "json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    doc = json.loads(captured.out)
    assert doc["failed_runs"] == []
    measured = {(a["case"], a["runtime"]) for a in doc["arms"]
                if a["processes_ok"] == 1 and a["statistics"]["samples"] == 1}
    assert {case for case, _ in measured} == set(CASES)
    assert {runtime.split("@")[0] + ("+int" if "+int" in runtime else "") for _, runtime in measured} == \
        {"java", "java+int"}
    assert len(measured) == 2 * len(CASES)
