"""docs/experiment-toml.md, generated from the schema in definitions.py (`versus schema`); a test keeps
the committed file equal to this output, so the documentation cannot drift from the code."""
from __future__ import annotations

from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel

from .definitions import Baseline, Case, Claim, Header, Method, Quick, Side

_TABLES: list[tuple[str, type[BaseModel], str]] = [
    ("[experiment]", Header, "What the experiment is and what it runs on."),
    ("[method]", Method, "How each arm is measured (`versus run` without `--quick`)."),
    ("[quick]", Quick, "The method of `--quick` and `make run`; keys left out fall back to `[method]`. Of the arms "
                       "its cases × runtimes make, `--quick` runs those the experiment's claims compare (all of them "
                       "when it has no claim, or when `--cases` or `--runtimes` select them)."),
    ("[params]", BaseModel, "Parameters: `name = value`, reaching programs as `VERSUS_PARAM_<NAME>`. A list sweeps "
                            "(one arm per value). Names are lower case letters, digits and `_`."),
    ("[programs]", BaseModel, "The program per program family: `python2`, `python3`, `ruby`, `java`, `go`, `rust`, "
                              "`c`; a path relative to the experiment folder, checked when the experiment loads."),
    ("[[cases]]", Case, "One named workload; at least one."),
    ("[[claims]]", Claim, "A published statement: numerator ÷ denominator within [min, max]."),
    ("numerator, denominator", Side, "A side of a claim: `{ case = \"…\", runtime = \"…\", params = { … } }`."),
    ("baseline (as a table)", Baseline, "`baseline = { runtime = \"…\" }` or `{ case = \"…\" }` (or both)."),
]


def _type(annotation: Any) -> str:
    if get_origin(annotation) is Literal:  # one of a few words: name them as TOML spells them
        return " or ".join(f'"{choice}"' for choice in get_args(annotation))
    text = str(annotation).replace("typing.", "").replace("<class '", "").replace("'>", "")
    return text.replace("versus.definitions.", "").replace("NoneType", "none").replace(" | ", " or ")


def _default(field: Any) -> str:
    if field.is_required():
        return "required"
    if field.default_factory is not None:
        return f"`{field.default_factory()!r}`"
    return f"`{field.default!r}`"


def markdown() -> str:
    lines = ["# experiment.toml", "",
             "Every key `experiment.toml` accepts, generated from the schema (`versus schema`). Unknown keys are "
             "rejected with a did-you-mean; types and ranges are checked; claims must name cases, runtimes and "
             "parameters that exist.", ""]
    for title, model, text in _TABLES:
        lines += [f"## {title}", "", text, ""]
        if model is BaseModel:
            continue
        lines += ["| key | type | default | meaning |", "|---|---|---|---|"]
        for name, field in model.model_fields.items():
            meaning = (field.description or "").replace("|", "\\|")
            limits = [f"{m.__class__.__name__.lower()} {getattr(m, m.__class__.__name__.lower(), '')}"
                      for m in field.metadata if m.__class__.__name__ in ("Ge", "Gt", "Le", "Lt")]
            if limits:
                meaning += (" " if meaning else "") + "(" + ", ".join(limits).replace("ge ", "≥ ").replace(
                    "gt ", "> ").replace("le ", "≤ ").replace("lt ", "< ") + ")"
            lines.append(f"| `{name}` | {_type(field.annotation)} | {_default(field)} | {meaning} |")
        lines.append("")
    return "\n".join(lines)
