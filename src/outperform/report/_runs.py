"""The runs x tasks section of a report: rliable-style aggregates (Agarwal et al. 2021).

``outperform report`` on a table with several runs (seeds) per model and task attaches
``compare_runs(...).to_dict()`` as ``report.details["runs"]``; this module turns that dict
into the blocks of a subsection of the inferences, so every format shows it.
"""
from __future__ import annotations

from ..results._runs import pairs_sentence
from ._sections import Table

_NAMES = {"mean": "mean", "median": "median", "iqm": "IQM", "optimality_gap": "optimality gap"}


def _cell(e: dict, signed: bool = False) -> str:
    f = "+.3f" if signed else ".3f"
    return f"{e['estimate']:{f}} [{e['low']:{f}}, {e['high']:{f}}]"


def runs_blocks(runs: dict) -> tuple[list[str], list[Table]]:
    """Sentences and tables of a ``RunsComparison.to_dict()``."""
    stats = list(next(iter(runs["aggregates"].values())))
    first = next(iter(next(iter(runs["aggregates"].values())).values()))
    level = f"{100 * first['confidence_level']:g}%"
    header = [_NAMES.get(s, s) for s in stats]
    tables = [Table("runs-aggregates", f"Aggregates over runs x tasks, {level} intervals",
                    ["model", *header],
                    [[m, *(_cell(st[s]) for s in stats)] for m, st in runs["aggregates"].items()],
                    "summary")]
    pairs: dict = {}
    for d in runs.get("differences", []):
        pairs.setdefault((d["x"], d["y"]), {})[d["statistic"].removesuffix(" difference")] = d
    if pairs:
        tables.append(Table("runs-differences", "Differences X - Y ("
                            f"{'paired' if runs['paired'] else 'unpaired'} bootstrap)",
                            ["X - Y", *header],
                            [[f"{x} - {y}", *(_cell(st[s], True) for s in stats)]
                             for (x, y), st in pairs.items()], "summary"))
    if runs.get("improvements"):
        tables.append(Table("runs-improvement", "Probability of improvement P(X > Y) "
                            "(0.5: no difference)", ["X", "Y", "P(X > Y)"],
                            [[e["x"], e["y"], _cell(e)] for e in runs["improvements"]],
                            "summary"))
    runs_per_model = sorted(set(runs["n_runs"].values()))
    text = [f"{len(runs['models'])} models x {len(runs['tasks'])} tasks x "
            f"{'/'.join(map(str, runs_per_model))} runs of {runs['metric']!r} (Agarwal et al. "
            "2021; the estimators of rliable).",
            f"Normalisation: {runs['normalization']}.",
            f"Intervals: {runs['bootstrap']}, {first['n_resamples']} resamples.",
            *([pairs_sentence(runs["pair_summary"], first["confidence_level"])]
              if runs.get("pair_summary") else []),
            *(f"{n[0].upper()}{n[1:]}." for n in runs.get("notes", []))]
    return text, tables
