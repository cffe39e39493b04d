"""What ``outperform report`` computes before it writes files, callable from Python too.

:func:`with_runs` adds rliable's aggregates to a Q3 report of a table with several runs
(seeds) per model and task; :func:`eval_reports` names the reports of an evaluation-log
comparison (one per task and pair of models, and the ones over tasks), unique as file stems.
"""
from __future__ import annotations

import dataclasses
import re


def with_runs(report, data, *, encoding: str | None = None, control: str | None = None,
              random_state=0, pairs: str | None = None):
    """``report`` with its typed ``runs``: :func:`compare_runs` of ``data`` (min-max
    normalised per task, which reads either direction) when it holds several runs per model
    and task; else ``report`` unchanged.

    Parameters
    ----------
    report : ComparisonReport
        A Q3 report of ``data`` (other questions are returned unchanged).
    data : str, Path or DataFrame
        The results table the report was computed from.
    encoding, control, random_state, pairs :
        As for :func:`outperform.compare.compare_runs` and :func:`read_results`.
    """
    from ..data import read_results
    from ..data._columns import MODEL, RUN, TASK
    from ._runs import compare_runs

    if report.question != "Q3":
        return report
    table = read_results(data, metric=report.metric, higher_is_better=report.higher_is_better,
                         encoding=encoding, paired=False)
    frame = table.frame
    if RUN not in frame.columns or frame.groupby([TASK, MODEL], observed=True)[
            RUN].nunique().max() < 2:
        return report
    runs = compare_runs(frame, metric=report.metric, higher_is_better=report.higher_is_better,
                        normalize="min-max", control=control,
                        random_state=random_state, pairs=pairs)
    return dataclasses.replace(report, runs=runs)


def eval_reports(result) -> list[tuple[str, object]]:
    """(file stem, report) of each report of an :class:`EvalComparison`: one per task (and
    pair of models), then the Q3 and hierarchical reports over tasks when there are any.

    Letters of any script are kept ("café"); names that collide, also without regard to
    case (case-insensitive file systems), get -2, -3, ... rather than one report overwriting
    another.
    """
    named = [(task if len(reps) == 1 else f"{task}-{r.models[0]}-vs-{r.models[1]}", r)
             for task, reps in result.per_task.items() for r in reps]
    named += [(name, r) for name, r in (("over-tasks-q3", result.across_tasks),
                                        ("over-tasks-hierarchical", result.hierarchical))
              if r is not None]
    stems: set[str] = set()
    out = []
    for name, rep in named:
        base = stem = re.sub(r"[^\w.-]+", "_", name).strip("_") or "task"
        n = 1
        while stem.casefold() in stems:
            n += 1
            stem = f"{base}-{n}"
        stems.add(stem.casefold())
        out.append((stem, rep))
    return out
