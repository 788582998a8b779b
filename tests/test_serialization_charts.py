"""experiments/serialization/charts.py: the table a reader compares serializers by, from a session's
document (no chart drawn: the table is the figure the README quotes)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _charts() -> Any:
    spec = importlib.util.spec_from_file_location("serialization_charts", ROOT / "experiments" / "serialization" / "charts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _arm(case: str, runtime: str, family: str, ns: float, **metrics: float) -> dict[str, Any]:
    return {"experiment": "serialization", "case": case, "runtime": runtime, "params": {"value": "standard"},
            "runtime_info": {"family": family, "version": runtime.split("@")[1]},
            "estimate": {"value": ns, "low": ns * 0.9, "high": ns * 1.1},
            "metrics": {name: {"value": value} for name, value in metrics.items()}}


def test_the_table_sets_each_total_against_protobuf_on_the_same_runtime() -> None:
    charts = _charts()
    document = {"format": "versus.session", "arms": [
        _arm("protobuf_roundtrip", "java@25.0.3", "java", 1000.0, size=242),
        _arm("kryo_roundtrip", "java@25.0.3", "java", 500.0, size=224),
        _arm("protobuf_roundtrip", "java@17.0.15", "java", 2000.0),
        _arm("thrift_binary_roundtrip", "java@17.0.15", "java", 3000.0),
        _arm("protobuf2008_roundtrip", "java@17.0.15", "java", 400.0),
        _arm("thrift2008_roundtrip", "java@17.0.15", "java", 600.0),
        _arm("py_protobuf", "cpython@3.13.0", "cpython", 4000.0),
        _arm("py_json", "cpython@3.13.0", "cpython", 8000.0),
        _arm("protobuf_serialize", "java@25.0.3", "java", 300.0),  # no roundtrip arm: serialize + deserialize
        _arm("protobuf_deserialize", "java@25.0.3", "java", 700.0),
        _arm("fory_serialize", "java@25.0.3", "java", 200.0),
        _arm("fory_deserialize", "java@25.0.3", "java", 300.0),
    ]}
    text = charts.table(charts.rows(document, "standard", "cpython@3.13"), "standard")
    ratio = {(cells[1], cells[2]): cells[-2] for line in text.splitlines() if line.startswith("| ") and "---" not in line
             for cells in [[c.strip() for c in line.split("|")]] if cells[1] != "serializer"}
    assert ratio[("kryo", "JDK 25")] == "0.50" and ratio[("protobuf", "JDK 25")] == "1.00"
    assert ratio[("thrift_binary", "JDK 17")] == "1.50"
    assert ratio[("thrift2008", "2008 artifacts, JDK 17")] == "1.50"
    assert ratio[("py_json", "Python")] == "2.00"
    assert ratio[("fory", "JDK 25")] == "0.50"  # (200 + 300) ÷ protobuf's roundtrip of 1000
