"""PNG charts: one per case, bars with CI whiskers, log scale when values span more than 20×."""
from __future__ import annotations

import re
from pathlib import Path

from ..analyze import Analysis

LOG_SPAN = 20.0


def draw(analysis: Analysis, folder: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for experiment in dict.fromkeys(a.experiment for a in analysis.arms):
        for case in dict.fromkeys(a.label for a in analysis.arms if a.experiment == experiment):
            arms = [a for a in analysis.arms if a.experiment == experiment and a.label == case and a.estimate]
            if not arms:
                continue
            arms.sort(key=lambda a: a.estimate.median.value if a.estimate else 0.0)
            medians = [a.estimate.median for a in arms if a.estimate]
            values = [m.value for m in medians]
            errors = [[m.value - m.low for m in medians], [m.high - m.value for m in medians]]
            figure, axes = plt.subplots(figsize=(9, 0.45 * len(arms) + 1.6))
            axes.barh([a.runtime for a in arms], values, xerr=errors, color="#4878a8", capsize=3)
            axes.invert_yaxis()
            if min(values) > 0 and max(values) / min(values) > LOG_SPAN:
                axes.set_xscale("log")
            axes.set_xlabel("ns per iteration (median, 95% CI)")
            axes.set_title(f"{experiment} · {case}")
            axes.grid(axis="x", alpha=0.3)
            figure.tight_layout()
            path = folder / f"{_slug(experiment)}-{_slug(case)}.png"
            figure.savefig(path, dpi=110)
            plt.close(figure)
            written.append(path)
    return written


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")
