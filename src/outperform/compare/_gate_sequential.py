"""``gate --sequential``: a regression gate checked after every item, valid at every look.

The fixed-n gate (:mod:`._gate`) reads a finished evaluation. A gate that watches an
evaluation while it runs — checked after each batch, stopped as soon as the answer is clear —
needs intervals valid at all looks at once: the betting confidence sequence of the paired
difference (:func:`outperform.compare.sequential_compare`). Each task gets one, at the level
that keeps the gate's one-sided α family-wise over the tasks (Bonferroni: a two-sided
sequence at 2α / m for m tasks); the verdict is regression if any task is a regression, pass
if every task is superior or non-inferior, else inconclusive (the evaluation should go on).

The items are taken in the candidate's order (the order of its log): that order must be
random — the harness drew the items at random, or evaluated a shuffled benchmark — for the
sequence to be valid; ``order="shuffle"`` draws a random order (seeded) for a finished log.
The baseline is the whole benchmark (its N items per task, sampling without replacement), so
the sequence is for the mean difference over all N items.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, check_random_state
from ..results._gate_sequential import SequentialGateResult, SequentialGateTask
from ._gate import prepare
from ._sequential import sequential_compare

#: gate verdict of each sequential decision
VERDICT = {"superior": "pass", "non-inferior": "pass", "regression": "regression",
           "continue": "inconclusive"}
ORDERS = ("file", "shuffle")


def _candidate_order(logs, task: str, metric: str, examples: np.ndarray) -> np.ndarray:
    """Positions that put ``examples`` in the order the candidate's log lists them."""
    rows = logs.scores
    rows = rows[(rows["model"] == "candidate") & (rows["task"] == task)
                & (rows["metric"] == metric)]
    first = {e: i for i, e in enumerate(dict.fromkeys(rows["example"].astype(str)))}
    return np.argsort([first.get(str(e), len(first)) for e in examples], kind="stable")


def _looks_sorted(examples) -> bool:
    """Whether the items come in increasing order of their ids (a sorted, not random, order)."""
    ids = np.asarray(examples).astype(str)
    if ids.size < 20:
        return False
    numeric = np.char.isdigit(ids).all()
    keys = ids.astype(np.int64) if numeric else ids
    return bool((keys[1:] >= keys[:-1]).mean() > 0.95)


def sequential_gate(baseline, candidate, *, margin: float | None = None, alpha: float = 0.05,
                    metric=None, task=None, format: str = "auto",
                    higher_is_better: bool | None = None, samples: str = "mean",
                    k: int | None = None, bounds: tuple[float, float] = (0.0, 1.0),
                    order: str = "file", grid: int = 1000, random_state=0,
                    y_true: str | None = "y_true") -> SequentialGateResult:
    """Gate a candidate against a baseline with decisions valid after every item.

    Parameters
    ----------
    baseline : as :func:`outperform.gate`
        The baseline's results on the whole benchmark (every item of each task).
    candidate : as :func:`outperform.gate`
        The candidate's results so far: a subset of the baseline's items, in the order they
        were evaluated (a log that grows as the evaluation runs).
    margin : float, optional
        δ ≥ 0 in the metric's units: "pass" once the candidate is shown to lose less than δ
        (non-inferior), "regression" once it is shown to lose more. None: 0 (pass only when
        the candidate is shown better, regression when shown worse).
    alpha : float
        One-sided level of each decision, family-wise over the tasks and over every look.
    bounds : (float, float)
        Known bounds of one item's score (0/1 correctness and proportions: (0, 1)).
    order : {"file", "shuffle"}
        "file": the candidate's items in the order of its log (must be a random order).
        "shuffle": a random order drawn with ``random_state`` (for a finished log: when
        would a random-order evaluation have stopped?).
    grid : int
        Resolution of the confidence sequences.
    metric, task, format, higher_is_better, samples, k, y_true
        As in :func:`outperform.gate`.

    Returns
    -------
    SequentialGateResult

    Raises
    ------
    InvalidInputError
        Scores outside ``bounds``; a negative margin or one as large as the range of the
        scores; an unknown ``order``; anything :func:`outperform.gate` refuses.

    Warns
    -----
    The candidate's items in increasing order of their ids (a note: the sequence needs a
    random order).
    """
    if order not in ORDERS:
        raise InvalidInputError(f"order={order!r}: choose one of {', '.join(ORDERS)}.")
    paired, hib, names, logs, warnings = prepare(
        baseline, candidate, margin=margin, alpha=alpha, cluster=None, metric=metric, task=task,
        power=0.8, intersect=True, format=format, higher_is_better=higher_is_better,
        samples=samples, k=k, y_true=y_true)
    warnings = [w for w in warnings if "gated on the" not in w]
    rng = check_random_state(random_state)
    level = min(0.999, 2 * alpha / len(paired))
    population = _populations(logs)
    tasks = []
    for name, p in paired.items():
        where = (rng.permutation(len(p.examples)) if order == "shuffle"
                 else _candidate_order(logs, name, p.metric, p.examples))
        if order == "file" and _looks_sorted(p.examples[where]):
            warnings.append(f"task {name!r}: the candidate's items come in increasing order of "
                            "their ids, not in a random order; the confidence sequence is "
                            "valid only for items drawn at random (shuffle the benchmark, or "
                            "order='shuffle', --shuffle, to see a random order).")
        scores = p.scores[where]
        base, cand = (scores[:, 0], scores[:, 1]) if hib else (-scores[:, 0], -scores[:, 1])
        lo, hi = (bounds if hib else (-bounds[1], -bounds[0]))
        seq = sequential_compare(base, cand, margin=0.0 if margin is None else float(margin),
                                 alpha=level, bounds=(lo, hi), grid=grid,
                                 population=max(population.get(name, 0), len(base)),
                                 names=(names["baseline"], names["candidate"]))
        tasks.append(SequentialGateTask(
            task=name, metric=p.metric, comparison=seq, verdict=VERDICT[seq.decision],
            population=int(seq.sequence.population)))
    verdicts = [t.verdict for t in tasks]
    verdict = ("regression" if "regression" in verdicts else
               "pass" if all(v == "pass" for v in verdicts) else "inconclusive")
    return SequentialGateResult(
        baseline=names["baseline"], candidate=names["candidate"], margin=margin,
        alpha=float(alpha), sequence_alpha=float(level), order=order, tasks=tuple(tasks),
        verdict=verdict, warnings=tuple(warnings))


def _populations(logs) -> dict[str, int]:
    """Items of each task in the baseline (the benchmark's N)."""
    rows = logs.scores[logs.scores["model"] == "baseline"]
    return {str(t): int(g["example"].nunique()) for t, g in rows.groupby("task", observed=True)}
