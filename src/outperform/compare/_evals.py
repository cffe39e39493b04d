"""Language models compared from their evaluation logs (Williams 2026 Q1 per task, Q3 over
tasks), items paired across models and clustered items handled (Miller 2024).

Per task and pair of models (A, B):
- the paired difference of mean scores A − B with its standard error: cluster-robust when
  items are grouped (``cluster``), else sd(d)/sqrt(n) (Miller 2024, "Adding error bars to
  evals", §2.2 eq. 4 and §4.1: pairing removes the variance the models share), and the
  normal-approximation confidence interval and p-value; the unpaired standard error
  sqrt(SE_A² + SE_B²) is kept beside it, as the comparison that ignores the pairing;
- binary scores (0/1 on every item): McNemar's exact test and the Bayesian McNemar test with
  the ROPE of Williams eq. 7; Wilson and Jeffreys intervals of each model's accuracy;
- real scores (graded, averaged over epochs): the paired t-test and the Bayesian t-test
  (Williams eq. 6); with clusters, on the cluster means (Williams §6.1).
Over tasks: the Q3 analysis with tasks as data sets (:func:`compare_many_tasks`) and, for
binary scores of two models, the hierarchical McNemar model (Williams §5.5,
:func:`compare_counts`).
"""
from __future__ import annotations


import numpy as np
import pandas as pd

from .._deprecation import renamed
from .._parallel import scheduler_client
from .._validation import (InvalidInputError, OutperformError, check_probability,
                           check_threshold)
from ..bayes._mcnemar import bayesian_mcnemar
from ..bayes._ttest import bayesian_ttest
from ..data._evals._pairing import PairedTask, pair_items
from ..data._evals._read import _differences, read_eval_logs
from ..data._evals._stream import details_files, stream_details
from ..data._evals._stream_pairs import pair_streamed
from ..data._evals._schema import EvalLogs
from ..data._results_table import ScoreMatrix
from ..data._columns import metric_direction
from ..results import ComparisonReport
from ..results._evals import EvalComparison
from ..stats._mcnemar import discordance_counts, mcnemar
from ..stats._paired_difference import paired_difference
from ..stats._proportion import proportion_confint
from ..stats._ttest import paired_ttest
from ._words import conclusion, constant_difference, favoured, probability_summary


@renamed(cluster_by="cluster")
def compare_evals(logs, *, metric=None, cluster: str | None = None, intersect: bool = False,
                  format: str = "auto", models=None, control: str | None = None,
                  higher_is_better: bool | None = None, alpha: float = 0.05,
                  threshold: float = 0.95, rope=None, gold=None,
                  scheduler=None, pairs: str | None = None) -> EvalComparison:
    """Compare language models from their per-sample evaluation logs, paired by item.

    Parameters
    ----------
    logs : path, sequence of paths, DataFrame or EvalLogs
        Anything :func:`outperform.data.read_eval_logs` reads (lm-eval samples, Inspect logs,
        HELM run folders, long tables), or its result. Hugging Face details files (or
        folders holding only them) are streamed instead, projected and bit-packed
        (:func:`outperform.data._evals._stream.stream_details`; thousands of models).
    metric : str or mapping of str to str, optional
        Metric to compare (default: each task's first reported one), see
        :func:`outperform.data.pair_items`.
    cluster : str, optional
        Field grouping the items (passage, conversation): standard errors become
        cluster-robust and the t-tests run on cluster means. ``cluster_by=`` is its
        deprecated name (one release).
    intersect : bool
        Compare on the items (and tasks) all models share instead of refusing when some are
        missing.
    format : {"auto", "lm-eval", "inspect", "helm", "hf-details", "csv"}
    models : sequence of str, optional
        Models to compare (default all). With more than two, all pairs, or each against
        ``control``, and a leaderboard per task (``EvalComparison.leaderboards``).
    control : str, optional
    higher_is_better : bool, optional
        Direction of the metric; default from its name (perplexities and bits per byte are
        lower-is-better, unknown names are taken as scores with a warning).
    alpha, threshold : float
        Significance level; Bayesian decision threshold.
    rope : float, optional
        Half-width of the ROPE: on φ for binary scores (default Williams eq. 7), in score units
        for real scores (default 0.1 sd of the differences).
    gold : path or DataFrame, optional
        Human labels of a subset of the items when the scores are a judge's (LLM-as-judge):
        one row per (model, item), columns ``model``, an item id, the human score (``label``,
        ``gold``, ``y_true``, ``human`` or ``score``), optionally ``task``. Adds
        ``EvalComparison.judge``: per model and pair, the judge-only and the PPI++ corrected
        mean and difference (Angelopoulos, Duchi & Zrnic 2023) with the effective sample
        size, Rogan–Gladen rates for 0/1 verdicts, and the judge's agreement with people.
    scheduler : None, str or dask.distributed.Client
        Run the bootstrap of the per-task leaderboards (more than two models: their rank
        sets, the only resampling here) on this Dask cluster, a scheduler's address
        ``tcp://HOST:PORT`` or a client (``outperform[dask]``): the same result, to the bit,
        as the local run. With two models nothing is resampled, and a warning says the
        cluster was not used. The rest (reading, pairing, the closed-form tests) runs here.
    pairs : {"all", "neighbours", "control"}, optional
        Which pairs get a per-task report (:func:`outperform.compare._pair_choice.choose_pairs`,
        the one rule): by default each model against ``control``, every pair up to 6
        models, else the neighbours in the ranking by the mean over tasks of the task means
        (best first); a note then counts, per task, the pairs of all that the leaderboard's
        adjusted tests find different.

    Returns
    -------
    EvalComparison
        ``per_task[task]``: one Q1 :class:`ComparisonReport` per pair, its
        ``tests["paired_difference"]`` the difference A − B of mean scores (positive favours
        A when higher is better) with ``confidence_interval()``; ``across_tasks`` (Q3) and
        ``hierarchical`` (binary scores, two models) when there are several tasks;
        ``leaderboards[task]`` with more than two models: rank confidence sets, tiers and
        letters of the models on the task's paired items (clusters resampled whole), as
        :func:`outperform.compare.leaderboard` gives them for the long table of the task's
        paired items (``model, example, score[, cluster]``, epochs averaged; bootstrap seeded
        with 0).

    Raises
    ------
    InvalidInputError, TooFewError
        From reading and pairing (missing items, differing content, duplicated ids,
        non-numeric scores, one model name with two settings), unknown control; no usable
        Dask cluster at ``scheduler``.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [(m, i, float(s)) for m, scores in (("big", [1] * 9 + [0]),
    ...                                           ("small", [1] * 6 + [0] * 4))
    ...         for i, s in enumerate(scores)]
    >>> table = pd.DataFrame(rows, columns=["model", "item", "score"]).assign(task="qa")
    >>> res = compare_evals(table)
    >>> pd_ = res.per_task["qa"][0].tests["paired_difference"]
    >>> round(pd_.estimate, 2), [round(v, 4) for v in pd_.confidence_interval(0.95)]
    (0.3, [0.0006, 0.5994])
    >>> res.per_task["qa"][0].tests["mcnemar"].pvalue       # 3 discordant items, all for big
    0.25
    """
    check_probability(alpha, "alpha")
    check_threshold(threshold)
    if not isinstance(logs, EvalLogs) and format in ("auto", "hf-details") \
            and details_files(logs):
        # Hugging Face details: streamed, projected and bit-packed (thousands of files)
        streamed = stream_details(logs, metric=metric, cluster=cluster)
        paired = pair_streamed(streamed, intersect=intersect, models=models)
        runs, warnings = streamed.runs, _differences(list(streamed.runs))
    else:
        if not isinstance(logs, EvalLogs):
            logs = read_eval_logs(logs, format=format, cluster=cluster)
        paired = pair_items(logs, metric=metric, intersect=intersect, models=models)
        runs, warnings = logs.runs, list(logs.warnings)
    names = next(iter(paired.values())).models
    if control is not None and control not in names:
        raise InvalidInputError(f"control {control!r} is not one of the models {list(names)}.")
    directions = {}
    for task, p in paired.items():
        directions[task], note = _direction(p.metric, higher_is_better)
        warnings += list(p.warnings) + ([note] if note else [])
    pairs, rule = _chosen_pairs(paired, names, directions, control, pairs)
    judged = {}
    if gold is not None:   # before the long analyses: a bad gold table fails fast
        from ._judges import judge_corrections

        judged, more = judge_corrections(paired, gold, pairs, directions, alpha)
        warnings += more + [w for j in judged.values() for w in j.warnings]
    # With more than two models, one family-wise decision per task: the leaderboard's
    # adjusted paired tests (its letters) decide every sentence about a pair (issue 24).
    boards = {}
    if len(names) > 2:
        with scheduler_client(scheduler) as client:   # connected once for every task
            boards = {task: _leaderboard(p, directions[task], alpha, client)
                      for task, p in paired.items()}
    elif scheduler is not None:
        warnings.append("scheduler: two models have no leaderboard, so nothing is resampled: "
                        "the comparison ran here, not on the Dask cluster.")
    per_task = {task: tuple(_pair_report(p, i, j, directions[task], alpha, threshold, rope,
                                         control, boards[task].pairwise if boards else None)
                            for i, j in pairs)
                for task, p in paired.items()}
    if boards and len(pairs) < len(names) * (len(names) - 1) // 2:
        counted = [_count_note(task, board, len(pairs), rule)
                         for task, board in boards.items()]
    else:
        counted = []
    hib = next(iter(directions.values()))
    matrix = ScoreMatrix(np.array([p.scores.mean(axis=0) for p in paired.values()]),
                         tuple(paired), names, _metric_label(paired), hib,
                         "mean over the paired items")
    if len(set(directions.values())) > 1:
        across, hierarchical = None, None
        notes = ["no analysis across tasks: their metrics point in different directions "
                 f"({', '.join(f'{t}: {paired[t].metric}' for t in paired)}); compare the "
                 "tasks of one direction, or choose one metric per task (metric=)."]
    else:
        across, hierarchical, notes = _across(paired, matrix, names, alpha, threshold, control)
    notes = [*counted, *notes]
    return EvalComparison(models=names, tasks=tuple(paired), metrics={t: p.metric for t, p in
                                                                      paired.items()},
                          higher_is_better=hib, per_task=per_task, across_tasks=across,
                          hierarchical=hierarchical, score_matrix=matrix, leaderboards=boards,
                          pairing={t: _pairing_summary(p) for t, p in paired.items()},
                          provenance=tuple(r.to_dict() for r in runs), judge=judged,
                          warnings=tuple(dict.fromkeys(warnings)), notes=tuple(notes))


def _chosen_pairs(paired, names, directions, control, pairs):
    """The pairs (i, j) of ``names`` that get a per-task report, and the rule in words: the
    one rule (choose_pairs) on the ranking by the mean over tasks of the task means (better
    first; the tasks' directions must agree, else the models' order). With a control, the
    control first in each pair, as before."""
    from ._pair_choice import choose_pairs

    if len(set(directions.values())) == 1:
        hib = next(iter(directions.values()))
        mean = np.mean([p.scores.mean(axis=0) for p in paired.values()], axis=0)
        ranking = [names[j] for j in np.argsort(-mean if hib else mean, kind="stable")]
    else:
        ranking = list(names)
    chosen, rule = choose_pairs(ranking, control=control, pairs=pairs, order=names)
    if control is not None and (pairs in (None, "control")):
        return [(names.index(control), names.index(m)) for m, _ in chosen], rule
    return [(names.index(a), names.index(b)) for a, b in chosen], rule


def _count_note(task, board, shown, rule) -> str:
    """How many of all pairs of ``task`` its leaderboard's adjusted tests find different,
    when only ``shown`` pairs have a report (compare/_pair_choice.count_sentence)."""
    from ._pair_choice import count_sentence

    family = board.pairwise
    k = len(family.names)
    upper = np.triu_indices(k, 1)
    differing = int(np.asarray(family.reject, dtype=bool)[upper].sum())
    return count_sentence(f"{task}: {family.method}, {family.adjustment}-adjusted (the "
                          "leaderboard letters' tests)", differing, k * (k - 1) // 2, shown, rule)


def _direction(metric: str, given: bool | None) -> tuple[bool, str | None]:
    if given is not None:
        return bool(given), None
    base = metric.split(",")[0].split("/")[-1]
    found = metric_direction(base)   # lm-eval's and HELM's names are known there too
    if found is None:
        return True, (f"metric {metric!r}: taken as higher-is-better (a score); pass "
                      "higher_is_better=False (--lower-is-better) if it is a loss.")
    return found, None


def _metric_label(paired) -> str:
    found = sorted({p.metric for p in paired.values()})
    return found[0] if len(found) == 1 else " / ".join(found)


def _family_decision(family, a: str, b: str) -> tuple[bool, str]:
    """The decision of the family-wise tests ``family`` (a PairwiseResult of all pairs) on
    the pair (a, b), and the words that name it."""
    fi, fj = family.names.index(a), family.names.index(b)
    k = len(family.names)
    adjusted = float(family.pvalue_adjusted[fi, fj])
    return bool(family.reject[fi, fj]), (
        f"decided by {family.method}, {family.adjustment}-adjusted p = {adjusted:.3g} over "
        f"the {k * (k - 1) // 2} pairs at α = {family.alpha:g}, the leaderboard letters' "
        "criterion")


def _pair_report(p: PairedTask, i, j, hib, alpha, threshold, rope, control,
                 family=None) -> ComparisonReport:
    """One pair's report. ``family``: the leaderboard's adjusted tests of all pairs (more
    than two models), whose decision every frequentist sentence about the pair then uses."""
    a, b = p.models[i], p.models[j]
    x, y = p.scores[:, i], p.scores[:, j]
    sign = 1.0 if hib else -1.0
    diff = paired_difference(x, y, p.clusters)
    tests = {"paired_difference": diff}
    decided = None if family is None else _family_decision(family, a, b)
    words = [_difference_words(p, diff, a, b, x, y, hib, alpha, decided)]
    warnings = []
    if diff.df is not None:
        warnings.append(f"only {diff.details['n_clusters']} clusters: the cluster-robust "
                        "standard error rests on them alone, so the paired difference is "
                        f"tested with Student's t on G − 1 = {diff.df} degrees of freedom "
                        "(not the normal)"
                        + ("; below 5 clusters even that is rough: more clusters (passages, "
                           "conversations) make it reliable." if diff.df < 4 else "."))
    if p.binary and p.clusters is None and hib:
        c = discordance_counts(x.astype(bool), y.astype(bool))
        if c.n01 + c.n10 > 0:
            tests["mcnemar"] = mcnemar(c.n01, c.n10, method="exact")
            tests["bayesian_mcnemar"] = bm = bayesian_mcnemar(c.n01, c.n10, rope=rope,
                                                              threshold=threshold)
            p_mcnemar = _p(tests["mcnemar"].pvalue)
            words.append(conclusion(
                tests["mcnemar"].method, a, b,
                decision=tests["mcnemar"].pvalue < alpha if decided is None else decided[0],
                values=(x.mean(), y.mean()), quantity=p.metric, higher_is_better=True,
                spec=".4g", evidence=f"{a} right and {b} wrong on {c.n10} item"
                                     f"{'' if c.n10 == 1 else 's'}, the reverse "
                                     f"on {c.n01}; " + (p_mcnemar if decided is None else
                                                        f"unadjusted {p_mcnemar}; {decided[1]}")))
            lo_r, hi_r = bm.rope
            words.append(conclusion(bm.method, a, b, decision=bm.decision,
                                    evidence=f"{probability_summary(a, b, bm, '.3g')}; ROPE on "
                                             f"φ [{lo_r:.3g}, {hi_r:.3g}]"))
        else:
            warnings.append(f"{a} and {b} are right and wrong on the same items: McNemar's "
                            "test has no discordant item to weigh.")
    else:
        if p.binary and p.clusters is not None:
            warnings.append("binary scores in clusters: McNemar's test assumes independent "
                            "items, so the t-tests run on the cluster means instead.")
        ua, ub, unit = _units(x, y, p.clusters)
        try:
            tests["paired_t"] = paired_ttest(sign * ua, sign * ub)
            tests["bayesian_t"] = bt = bayesian_ttest(sign * ua, sign * ub, rope=rope,
                                                      threshold=threshold)
            words.append(conclusion(bt.method + f" on {unit}", a, b, decision=bt.decision,
                                    evidence=probability_summary(a, b, bt, ".3g")))
        except OutperformError as exc:
            warnings.append(f"t-tests on {unit} not run: {exc}")
    summary = tuple(sorted((_model_row(p, k) for k in (i, j)),
                           key=lambda r: -sign * r["mean_score"]))
    return ComparisonReport(
        question="Q1", metric=p.metric, higher_is_better=hib, models=(a, b), n_tasks=1,
        alpha=alpha, summary=summary, tests=tests, recommended="paired_difference",
        rationale="the same items scored for both models: the paired difference of means with "
                  "its standard error (cluster-robust for grouped items; Miller 2024), McNemar "
                  "and Bayesian McNemar for 0/1 scores, t-tests for graded scores (Williams "
                  "2026 §5.1–5.4).",
        conclusions=tuple(words), warnings=tuple(warnings), control=control,
        details={"task": p.task, "n_items": int(len(p.examples)),
                 "n_clusters": None if p.clusters is None else int(len(set(p.clusters))),
                 **_verdict(diff, a, b, hib, alpha, decided)})


def _verdict(diff, a, b, hib, alpha, decided) -> dict:
    """The pair's one frequentist verdict, for tables beside the sentences: ``better`` (the
    better model, or "" for no significant difference) and ``decided_by``."""
    reject = bool(diff.pvalue < alpha) if decided is None else decided[0]
    side = favoured(diff.estimate, higher_is_better=hib) if reject else 0
    return {"better": {1: a, -1: b}.get(side, ""),
            "decided_by": (f"{diff.method}, unadjusted p at α = {alpha:g}" if decided is None
                           else decided[1].removeprefix("decided by "))}


def _difference_words(p, diff, a, b, x, y, hib, alpha, decided=None) -> str:
    """The sentence of the paired difference: better model, by how much, the paired CI;
    ``decided``: (decision, its words) of the family-wise tests, when they decide."""
    se, n = diff.standard_error, diff.n_items
    clusters = diff.n_clusters if p.clusters is not None else None
    if se == 0:   # the same difference on every item (cluster): no spread, no p-value
        return constant_difference(diff.method, a, b, difference=diff.estimate,
                                   higher_is_better=hib, quantity=p.metric,
                                   n=clusters or n, units="clusters" if clusters else "items")
    lo, hi = diff.confidence_interval(1 - alpha)
    where = (f" in {clusters} clusters, design effect {diff.design_effect:.2f}"
             if clusters else "")
    return conclusion(
        diff.method, a, b, decision=diff.pvalue < alpha if decided is None else decided[0],
        values=(x.mean(), y.mean()), quantity=p.metric, higher_is_better=hib, spec=".4g",
        evidence=f"{a} − {b} = {diff.estimate:+.4g}, {'' if decided is None else 'unadjusted '}"
                 f"{1 - alpha:.0%} CI [{lo:+.4g}, {hi:+.4g}], "
                 f"SE {se:.3g} over {n} items{where}; "
                 + (_p(diff.pvalue) if decided is None else
                    f"unadjusted {_p(diff.pvalue)}; {decided[1]}"))


def _p(pvalue: float) -> str:
    # A p-value below the smallest double prints as 0, which reads as "certain".
    return "p < 1e-300" if pvalue == 0 else f"p = {pvalue:.3g}"


def _units(x, y, clusters):
    if clusters is None:
        return x, y, "items"
    codes, uniques = pd.factorize(clusters)
    counts = np.bincount(codes)
    return (np.bincount(codes, x) / counts, np.bincount(codes, y) / counts,
            f"{len(uniques)} cluster means")


def _model_row(p: PairedTask, k: int) -> dict:
    s = p.scores[:, k]
    row = {"model": p.models[k], "mean_score": float(s.mean()), "n_items": int(s.size),
           "epochs": int(p.epochs[k])}
    if p.epochs[k] > 1:
        row["within_item_variance"] = float(p.within_variance[k])
    if p.binary:
        n, hits = int(s.size), int(s.sum())
        for method in ("wilson", "jeffreys"):
            lo, hi = proportion_confint(hits, n, method=method)
            row[f"{method}_low"], row[f"{method}_high"] = float(lo), float(hi)
    return row


def _pairing_summary(p: PairedTask) -> dict:
    return {"metric": p.metric, "n_items": int(len(p.examples)),
            "n_clusters": None if p.clusters is None else int(len(set(p.clusters))),
            "epochs": dict(zip(p.models, p.epochs.tolist())),
            "within_item_variance": {m: (None if np.isnan(v) else float(v))
                                     for m, v in zip(p.models, p.within_variance)},
            "dropped": {m: {"count": len(ids), "first": list(map(str, ids[:5]))}
                        for m, ids in p.dropped.items()}}


def _leaderboard_table(p: PairedTask) -> pd.DataFrame:
    """The paired items of a task as the long table :func:`leaderboard` reads: one row per
    (model, example) in the order of ``p.models`` and ``p.examples``, the epoch-averaged
    ``score`` and, with clusters, ``cluster``."""
    n, m = p.scores.shape
    table = {"model": np.repeat(np.asarray(p.models, dtype=object), n),
             "example": np.tile(p.examples, m), "score": p.scores.T.ravel()}
    if p.clusters is not None:
        table["cluster"] = np.tile(p.clusters, m)
    return pd.DataFrame(table)


def _leaderboard(p: PairedTask, higher_is_better: bool, alpha: float, client=None):
    """Rank sets, tiers and letters of the models on one task (more than two models), the
    bootstrap on ``client``'s Dask cluster when given."""
    from ._leaderboard import leaderboard

    return leaderboard(_leaderboard_table(p), metric="score", higher_is_better=higher_is_better,
                       alpha=alpha, cluster="cluster" if p.clusters is not None else None,
                       scheduler=client)


def _across(paired, matrix, names, alpha, threshold, control):
    """Q3 over tasks and the hierarchical McNemar; why not, when they cannot run."""
    notes, across, hierarchical = [], None, None
    if len(paired) < 2:
        return None, None, ["one task: no analysis across tasks."]
    # Imported here: one task (the common case) does not load the Q3 kernels (scipy.stats).
    from ._hierarchical import compare_counts
    from ._q3 import compare_many_tasks

    try:
        across = compare_many_tasks(matrix, alpha=alpha, control=control)
    except OutperformError as exc:
        notes.append(f"Q3 across tasks not run: {exc}")
    if len(names) == 2 and matrix.higher_is_better and all(p.binary for p in paired.values()):
        rows = []
        for task, p in paired.items():
            c = discordance_counts(p.scores[:, 0].astype(bool), p.scores[:, 1].astype(bool))
            rows.append({"task": task, "n01": c.n01, "n10": c.n10})
        try:
            hierarchical = compare_counts(pd.DataFrame(rows), names=tuple(names), alpha=alpha,
                                          threshold=threshold)
        except OutperformError as exc:
            notes.append(f"hierarchical McNemar not run: {exc}")
    else:
        notes.append("hierarchical McNemar over tasks: only for two models with 0/1 scores "
                     "on every task.")
    return across, hierarchical, notes
