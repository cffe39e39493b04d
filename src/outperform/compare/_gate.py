"""Regression gate: is a candidate build no worse than the baseline, task by task?

The candidate and the baseline are scored on the same items (paired by item id, with the
checks of :func:`compare_evals`). Per task, d = candidate − baseline, **sign-adjusted so that
d > 0 favours the candidate** (baseline − candidate for a lower-is-better metric), and two
one-sided tests at level α against the margin δ (δ = 0 without one):

* regression — H1: d < −δ (the candidate is worse by more than δ);
* pass (with a margin) — H1: d > −δ (non-inferiority within δ).

The tests: 0/1 scores on independent items, exact McNemar (δ = 0) or Tango's score test
(δ > 0; Tango 1998); graded scores, the paired t-test of d + δ; items in clusters, the
cluster-robust z (t with G − 1 df below 10 clusters) of d + δ (Miller 2024). Their p-values
are Holm-adjusted across the tasks, each family apart. A task is a **regression** when its
adjusted regression p-value is below α; with a margin it **passes** when its adjusted
non-inferiority p-value is below α, and is **inconclusive** otherwise; without a margin it
passes when it is not a regression. The verdict: regression if any task is one; else
inconclusive if any task is; else pass.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special

from .._validation import DegenerateDataError, InvalidInputError, check_probability
from ..data._evals._pairing import PairedTask, pair_items
from ..plan._gate import gate_power
from ..results._gate import GateResult, GateTask
from ..stats._mcnemar import mcnemar
from ..stats._multipletests import adjust_pvalues
from ..stats._noninferiority import TangoInterval, noninferiority_test, tango_score_test
from ..stats._paired_difference import paired_difference
from ..stats._ttest import paired_ttest
from ._evals import _direction
from ._gate_inputs import read_runs, reduce_repeats, select_tasks


def rule_text(margin: float | None, alpha: float) -> str:
    """The decision rule of a gate, in words."""
    if margin is None:
        return (f"regression when the candidate is worse than the baseline at one-sided "
                f"α = {alpha:g} (Holm-adjusted across tasks); pass otherwise. Without a "
                "margin a gate cannot show that there is no regression, only fail to find "
                "one: read the minimum detectable regression, or give a margin.")
    return (f"regression when the candidate is worse by more than the margin {margin:g} at "
            f"one-sided α = {alpha:g}; pass when it is shown to lose less than {margin:g} "
            "(non-inferiority) at α; inconclusive otherwise (Holm-adjusted across tasks). "
            "Overall: regression if any task is one, else inconclusive if any task is, else "
            "pass.")


def check_margin(margin, scores: np.ndarray | None) -> list[str]:
    """Refuse a margin that cannot be a loss in the metric's units; warn of a useless one.

    Raises
    ------
    InvalidInputError
        Not a finite number > 0; 1 or more on scores within [0, 1] (percent units?).
    """
    if margin is None:
        return []
    if isinstance(margin, bool) or not isinstance(margin, (int, float, np.number)) \
            or not math.isfinite(margin):
        raise InvalidInputError(f"margin must be a number, the loss tolerated in metric units, "
                                f"got {margin!r}.")
    if margin <= 0:
        raise InvalidInputError(
            f"margin {margin:g}: the margin is the loss the gate tolerates, a positive number "
            f"in the metric's units (margin={abs(margin):g}, --margin {abs(margin):g}); the "
            "sign is the metric's direction, which the gate already knows.")
    if scores is None:
        return []
    lo, hi = float(np.min(scores)), float(np.max(scores))
    if lo >= 0 and hi <= 1 and margin >= 1:
        raise InvalidInputError(
            f"margin {margin:g} on scores between 0 and 1: a loss of {margin:g} is more than "
            f"the whole scale. In percentage points? Give {margin / 100:g} for {margin:g} "
            "points.")
    if hi > lo and margin >= hi - lo:
        return [f"the margin {margin:g} is as wide as the whole range of the scores "
                f"[{lo:g}, {hi:g}]: every candidate passes; check its units."]
    return []


def _binary_task(rb, rc, margin, alpha):
    """Counts, tests and interval of 0/1 scores (rb, rc: correctness, 1 = right)."""
    n = rb.size
    n01 = int(np.sum(~rc & rb))          # candidate wrong, baseline right
    n10 = int(np.sum(rc & ~rb))          # candidate right, baseline wrong
    ci = TangoInterval(n01, n10, n)(1 - 2 * alpha)
    counts = {"n01": n01, "n10": n10, "discordance": (n01 + n10) / n}
    if margin is None:
        if n01 + n10 == 0:
            return counts, ci, "exact McNemar test (no discordant item)", 1.0, None
        res = mcnemar(n01, n10, method="exact", alternative="less")
        return counts, ci, "exact McNemar test, one-sided", res.pvalue, None
    p_pass = noninferiority_test(n01, n10, n, margin=margin).pvalue
    p_reg = tango_score_test(n01, n10, n, delta0=-margin, alternative="less").pvalue
    return counts, ci, "Tango's score test against the margin, one-sided", p_reg, p_pass


def _graded_task(d, clusters, margin, alpha):
    """Tests and interval of graded (or clustered) per-item differences d."""
    shift = 0.0 if margin is None else margin
    diff = paired_difference(d, np.zeros_like(d), clusters)
    counts = {"sd": float(np.std(d, ddof=1))}
    if clusters is not None:
        se, df = diff.details["standard_error"], diff.df
        ci = diff.confidence_interval(1 - 2 * alpha)
        counts["design_effect"] = float(diff.details["design_effect"])
        if se == 0:
            p_reg, p_pass = _constant(diff.estimate + shift)
        else:
            z = (diff.estimate + shift) / se
            p_reg = float(special.ndtr(z) if df is None else special.stdtr(df, z))
            p_pass = 1.0 - p_reg
        method = diff.method + (", one-sided" if margin is None else
                                " of d + margin, one-sided")
        return counts, ci, method, p_reg, (None if margin is None else p_pass)
    try:
        reg = paired_ttest(d + shift, np.zeros_like(d), alternative="less")
        p_reg = reg.pvalue
        p_pass = paired_ttest(d + shift, np.zeros_like(d), alternative="greater").pvalue
        lo, hi = paired_ttest(d, np.zeros_like(d)).confidence_interval(1 - 2 * alpha)
        ci = (float(lo), float(hi))
        method = ("paired t-test, one-sided" if margin is None
                  else "paired non-inferiority t-test (d + margin), one-sided")
    except DegenerateDataError:
        p_reg, p_pass = _constant(float(d[0]) + shift)
        ci = (float(d[0]), float(d[0]))
        method = "every item has the same difference (no spread): decided by its sign"
    return counts, ci, method, p_reg, (None if margin is None else p_pass)


def _constant(value: float) -> tuple[float, float]:
    """(p of regression, p of pass) when every difference equals one value: certain."""
    if value > 0:
        return 1.0, 0.0
    if value < 0:
        return 0.0, 1.0
    return 1.0, 1.0


def _task(p: PairedTask, hib: bool, margin, alpha, power, repeats) -> GateTask:
    b, c = p.scores[:, 0], p.scores[:, 1]
    sign = 1.0 if hib else -1.0
    d = sign * (c - b)
    if p.binary and p.clusters is None:
        rb, rc = (b == 1, c == 1) if hib else (b == 0, c == 0)
        counts, ci, test, p_reg, p_pass = _binary_task(rb, rc, margin, alpha)
        plan = gate_power(binary=True, n=len(d), alpha=alpha, power=power, margin=margin,
                          difference=float(d.mean()), discordance=counts["discordance"],
                          baseline_rate=float(rb.mean()))
    else:
        counts, ci, test, p_reg, p_pass = _graded_task(d, p.clusters, margin, alpha)
        plan = gate_power(binary=False, n=len(d), alpha=alpha, power=power, margin=margin,
                          difference=float(d.mean()), sd=counts["sd"],
                          design_effect=counts.get("design_effect", 1.0))
    return GateTask(
        task=p.task, metric=p.metric, n_items=int(len(d)),
        n_clusters=None if p.clusters is None else int(len(set(p.clusters))),
        binary=p.binary, baseline_mean=float(b.mean()), candidate_mean=float(c.mean()),
        difference=float(d.mean()), ci_low=float(ci[0]), ci_high=float(ci[1]), test=test,
        pvalue_regression=float(p_reg), pvalue_pass=None if p_pass is None else float(p_pass),
        power=plan, counts=counts,
        repeats={"reduced_by": repeats,
                 "epochs": dict(zip(("baseline", "candidate"), p.epochs.tolist())),
                 "within_item_variance": {m: (None if np.isnan(v) else float(v)) for m, v in
                                          zip(("baseline", "candidate"), p.within_variance)}})


def decide(tasks: list[GateTask], margin, alpha) -> tuple[list[GateTask], str]:
    """Holm-adjust each family of p-values across tasks; each task's decision; the verdict."""
    from dataclasses import replace

    p_reg = adjust_pvalues([t.pvalue_regression for t in tasks], "holm")
    p_pass = (adjust_pvalues([t.pvalue_pass for t in tasks], "holm") if margin is not None
              else [None] * len(tasks))
    out = []
    for t, pr, pp in zip(tasks, p_reg, p_pass):
        if pr < alpha:
            decision = "regression"
        elif margin is None or pp < alpha:
            decision = "pass"
        else:
            decision = "inconclusive"
        if decision != "inconclusive":
            t = replace(t, power={**t.power, "items_needed": None})
        out.append(replace(t, pvalue_regression_adjusted=float(pr),
                           pvalue_pass_adjusted=None if pp is None else float(pp),
                           decision=decision))
    found = {t.decision for t in out}
    verdict = ("regression" if "regression" in found else
               "inconclusive" if "inconclusive" in found else "pass")
    return out, verdict


def _pooled(paired, hib, alpha) -> tuple[GateTask | None, list[str]]:
    metrics = {p.metric for p in paired.values()}
    if len(paired) < 2:
        return None, []
    if len(metrics) > 1:
        return None, [f"no pooled row: the tasks use different metrics {sorted(metrics)}."]
    sign = 1.0 if hib else -1.0
    d = np.concatenate([sign * (p.scores[:, 1] - p.scores[:, 0]) for p in paired.values()])
    b = np.concatenate([p.scores[:, 0] for p in paired.values()])
    c = np.concatenate([p.scores[:, 1] for p in paired.values()])
    clusters = (None if any(p.clusters is None for p in paired.values()) else
                np.concatenate([np.char.add(f"{t}\x00", p.clusters.astype(str))
                                for t, p in paired.items()]))
    diff = paired_difference(d, np.zeros_like(d), clusters)
    lo, hi = diff.confidence_interval(1 - 2 * alpha)
    return GateTask(task="all items", metric=metrics.pop(), n_items=int(d.size),
                    n_clusters=diff.details["n_clusters"] if clusters is not None else None,
                    binary=bool(np.isin(np.concatenate([b, c]), (0.0, 1.0)).all()),
                    baseline_mean=float(b.mean()), candidate_mean=float(c.mean()),
                    difference=float(d.mean()), ci_low=float(lo), ci_high=float(hi),
                    test=diff.method + " (pooled, reported only)",
                    pvalue_regression=float(special.ndtr(diff.statistic))
                    if np.isfinite(diff.statistic) else 1.0), []


def prepare(baseline, candidate, *, margin, alpha, cluster, metric, task, power, intersect,
            format, higher_is_better, samples, k, y_true="y_true"):
    """Checks, reading and pairing of a gate: (paired tasks, higher_is_better, the logged
    names, the logs, warnings)."""
    check_probability(alpha, "alpha")
    check_probability(power, "power")
    if not alpha < 0.5:
        raise InvalidInputError(f"alpha {alpha:g}: a one-sided level must be below 0.5.")
    check_margin(margin, None)
    logs, names, warnings = read_runs(baseline, candidate, format=format, cluster=cluster,
                                      y_true=y_true)
    logs = reduce_repeats(select_tasks(logs, task), samples, k)
    paired = pair_items(logs, metric=metric, intersect=intersect,
                        models=("baseline", "candidate"))
    warnings += list(logs.warnings)
    for p in paired.values():
        warnings += list(p.warnings)
        if p.dropped:
            shown = "; ".join(f"{m} lacks {len(ids)}" for m, ids in p.dropped.items())
            warnings.append(f"task {p.task!r}: gated on the {len(p.examples)} items both runs "
                            f"have ({shown}).")
    warnings += check_margin(margin, np.concatenate([p.scores.ravel() for p in paired.values()]))
    directions = {}
    for name, p in paired.items():
        directions[name], note = _direction(p.metric, higher_is_better)
        warnings += [note] if note else []
    if len(set(directions.values())) > 1:
        raise InvalidInputError("the tasks' metrics point in different directions ("
                                + ", ".join(f"{t}: {paired[t].metric}" for t in paired)
                                + "); gate them one direction at a time (task=, --task).")
    hib = next(iter(directions.values()))
    return paired, hib, names, logs, warnings


def gate(baseline, candidate, *, margin: float | None = None, alpha: float = 0.05,
         cluster: str | None = None, metric=None, task=None, power: float = 0.8,
         intersect: bool = False, format: str = "auto", higher_is_better: bool | None = None,
         samples: str = "mean", k: int | None = None, aa: bool = False,
         n_resamples: int = 1000, random_state=0, y_true: str | None = "y_true"
         ) -> GateResult:
    """Gate a candidate build against a baseline: pass, regression or inconclusive.

    Parameters
    ----------
    baseline, candidate : path, sequence of paths, DataFrame or EvalLogs
        Per-item results of one model each: anything
        :func:`outperform.data.read_eval_logs` reads (lm-eval samples, Inspect logs, HELM
        run folders, CSV/Parquet tables of ``[task,] item, score[, epoch]`` with a
        ``model`` column), a predictions table (``y_true`` and one model's predictions:
        each item right or wrong), or for ``baseline`` a folder written by
        :func:`save_baseline`.
    margin : float, optional
        δ > 0: the loss the gate tolerates, in the metric's units (0.02 = two points of
        accuracy). None: a difference test (regression or pass only).
    alpha : float
        One-sided level of each decision (below 0.5), family-wise across tasks by Holm.
    cluster : str, optional
        Field grouping the items: cluster-robust tests and intervals.
    metric : str or mapping, optional
        As :func:`compare_evals` (default: each task's first metric).
    task : str or list of str, optional
        Gate only these tasks.
    power : float
        Power of the minimum detectable regression reported (0.8).
    intersect : bool
        Gate on the items (and tasks) both runs have, with a warning, instead of refusing.
    format : {"auto", "lm-eval", "inspect", "helm", "csv"}
    higher_is_better : bool, optional
        Default from the metric's name.
    samples : {"mean", "pass@k", "k-of-k"}
        Several samples (epochs, seeds) of an item: their mean (the within-item variance is
        reported), or the unbiased pass@k / k-of-k of its samples (Chen et al. 2021).
    k : int, optional
        k of pass@k and k-of-k.
    aa : bool
        The two runs are of one build: add the A/A check (``result.aa``: the flip rate of
        the verdict over ``n_resamples`` resamples of the items with their two scores
        swapped at random, seeded by ``random_state``; flagged when above α).
    y_true : str or None
        The labels' column of a predictions table.

    Returns
    -------
    GateResult
        Per task (:class:`~outperform.results.GateTask`): items, means, the difference d
        (candidate − baseline, positive favours the candidate), its (1 − 2α) interval, the
        test, raw and Holm-adjusted p-values, the decision, and the power at the current
        n (:func:`outperform.plan.gate_power`); the verdict and the rule (module docstring).

    Raises
    ------
    InvalidInputError
        A margin ≤ 0 or of 1 or more on 0–1 scores (percent units); alpha not below 0.5; a
        run holding several models; items missing in one run (unless ``intersect``);
        anything the readers and the pairing refuse.
    TooFewError
        Fewer than 2 shared items, or no shared task.

    Examples
    --------
    Twenty items; the candidate loses 3 the baseline had and gains none:

    >>> import pandas as pd
    >>> base = pd.DataFrame({"model": "v1", "item": range(20), "score": [1] * 16 + [0] * 4})
    >>> cand = base.assign(model="v2", score=[1] * 13 + [0] * 7)
    >>> res = gate(base, cand)
    >>> res.verdict, res.tasks[0].difference, res.tasks[0].pvalue_regression   # 1/2^3
    ('pass', -0.15, 0.125)
    >>> gate(base, cand, margin=0.05).verdict
    'inconclusive'
    """
    paired, hib, names, logs, warnings = prepare(
        baseline, candidate, margin=margin, alpha=alpha, cluster=cluster, metric=metric,
        task=task, power=power, intersect=intersect, format=format,
        higher_is_better=higher_is_better, samples=samples, k=k, y_true=y_true)
    tasks = [_task(p, hib, margin, alpha, power, samples) for p in paired.values()]
    tasks, verdict = decide(tasks, margin, alpha)
    overall, notes = _pooled(paired, hib, alpha)
    result = GateResult(verdict=verdict, tasks=tuple(tasks), overall=overall,
                      margin=None if margin is None else float(margin), alpha=float(alpha),
                      power_target=float(power), higher_is_better=hib,
                      baseline=str(names["baseline"]), candidate=str(names["candidate"]),
                      rule=rule_text(margin, alpha),
                      provenance=tuple(r.to_dict() for r in logs.runs),
                      warnings=tuple(dict.fromkeys(warnings)), notes=tuple(notes))
    if aa:
        from ._gate_aa import aa_check

        result = aa_check(result, paired, hib, n_resamples=n_resamples,
                          random_state=random_state)
    return result
