"""Q3, Bayesian section: Bayesian signed-rank and sign tests, and the Poisson test from folds.

Benavoli et al. (2017) recommend the Bayesian signed-rank test with a ROPE over data sets;
when the per-fold results of cross-validation are there, the Poisson test of Corani &
Benavoli (2015) uses each data set's uncertainty as well. Both are added to a Q3 report.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..bayes import (bayesian_sign_test, bayesian_signed_rank_test, pairwise_bayesian_signed_rank_test)
from ..bayes._poisson_test import pairwise_poisson_test, poisson_test
from .._validation import InvalidInputError
from ..data._results_table import ResultsTable, ScoreMatrix
from ..results import ComparisonReport, PairwiseResult
from ._guards import min_data_sets, withhold_few_data_sets, withhold_zero_rope
from ..stats._tost import tost
from ._pair_choice import count_sentence, shown_pairs
from ._words import conclusion, equivalence_words, probability_summary
from ._q2 import ROPE_SD_FRACTION, _rho

ACCURACY_ROPE = 0.01  # Benavoli et al. (2017): 1 point of accuracy is practically nothing
# Default weights s of the Dirichlet-process pseudo-observation (Benavoli et al. 2017).
SIGNED_RANK_PRIOR, SIGN_PRIOR = 0.5, 1.0
SD_RULE = "0.1 x sd of the differences (Williams 2026 §5.2)"


def check_prior_strength(prior_strength) -> float:
    """The weight s of the Dirichlet-process prior, checked: a number > 0.

    Raises
    ------
    InvalidInputError
        ``prior_strength`` not a finite number > 0 (the Dirichlet process DP(s, G0) of
        Benavoli et al. 2017 needs s > 0; s = 0 is not "no prior" but an undefined one).
    """
    try:
        value = float(prior_strength)
    except (TypeError, ValueError):
        value = float("nan")
    if isinstance(prior_strength, bool) or not (np.isfinite(value) and value > 0):
        raise InvalidInputError(
            f"prior_strength (--prior) must be a number > 0, got {prior_strength!r}: it is the "
            "weight s of the pseudo-observation of the Dirichlet-process prior (Benavoli et al. "
            "2017), which needs s > 0. Leave it out for the defaults (0.5 for the signed-rank "
            "test, 1 for the sign test), or give a small weight such as 0.1.")
    return value


def default_rope(scores: ScoreMatrix) -> tuple[float, str]:
    """ROPE half-width for scores over data sets, and the rule that gave it.

    Scores within [0, 1] (accuracy, AUC, F1, ...) get 0.01 as in Benavoli et al. (2017); other
    scores get 0.1 x the standard deviation of the pairwise differences (Williams 2026 §5.2).
    """
    v = scores.values
    if v.min() >= 0 and v.max() <= 1:
        return ACCURACY_ROPE, "0.01 for scores in [0, 1] (Benavoli et al. 2017)"
    i, j = np.triu_indices(v.shape[1], 1)
    sd = float(np.mean(np.std(v[:, i] - v[:, j], axis=0, ddof=1)))
    return ROPE_SD_FRACTION * sd, SD_RULE


def fold_scores(table: ResultsTable, metric: str) -> tuple[list[np.ndarray], np.ndarray] | None:
    """Per-data-set fold scores (n_folds, k) and each data set's rho, or None without folds."""
    if table.measurements_per_cell < 2:
        return None
    folds, rhos = [], []
    for task in table.tasks:
        per_model = table.paired_replicates(task, metric)
        folds.append(np.column_stack([per_model[m] for m in table.models]))
        rhos.append(_rho(_one_task(table, task), task, None)[0])
    return folds, np.array(rhos)


def _one_task(table: ResultsTable, task: str) -> ResultsTable:
    return replace(table, frame=table.frame[table.frame["task"] == task])


def add_bayesian_section(report: ComparisonReport, scores: ScoreMatrix,
                         table: ResultsTable | None, *, rope: float | None = None,
                         prior_strength: float | None = None, threshold: float = 0.95,
                         n_samples: int = 50000, random_state=0) -> ComparisonReport:
    """Return ``report`` with the Bayesian tests over data sets added.

    Two models: ``tests`` gains ``bayesian_signed_rank``, ``bayesian_sign``, ``tost`` (the
    TOST equivalence test over data sets with the ROPE as margin, unless the ROPE is the
    data-derived 0.1 sd) and, with folds, ``poisson``. More models: ``posthoc`` gains the all-pairs tables. The ROPE is ``rope``
    (score units) or :func:`default_rope`; ``prior_strength`` is the weight of the
    Dirichlet-process pseudo-observation (default 0.5 for signed-rank, 1 for sign; a given
    value, checked to be > 0 by :func:`check_prior_strength`, is used for both).

    With fewer data sets than :func:`outperform.compare.min_data_sets` (5 at the default
    threshold 0.95) every decision of these tests is withheld ("undecided", with the reason in
    ``details["decision_withheld"]`` and in the warnings): from 2 data sets the signed-rank
    test would tell equal models apart in half of the comparisons. Up to twice that number
    a warning quotes the measured rate (:data:`outperform.compare.MIN_DATA_SETS_TABLE`).
    """
    if prior_strength is not None:
        check_prior_strength(prior_strength)
    signed_rank_prior, sign_prior = ((SIGNED_RANK_PRIOR, SIGN_PRIOR) if prior_strength is None
                                     else (prior_strength, prior_strength))
    if rope is None:
        rope, rope_rule = default_rope(scores)
    else:
        rope_rule = "given"
    sign = 1.0 if scores.higher_is_better else -1.0
    v = sign * scores.values
    folds = fold_scores(table, scores.metric) if table is not None else None
    if folds is not None:
        folds = ([sign * f for f in folds[0]], folds[1])
    dp = dict(rope=rope, n_samples=n_samples, random_state=random_state, threshold=threshold)
    tests, post = dict(report.tests), dict(report.posthoc)
    words, notes = [], []
    names = scores.models

    def guarded(result):
        result, warnings = withhold_few_data_sets(result, v.shape[0], threshold)
        notes.extend(warnings)
        if rope_rule == SD_RULE and rope == 0 and "decision_withheld" not in result.details:
            # no spread: the default ROPE 0.1 x sd is 0, no ROPE at all (issue 25)
            result = withhold_zero_rope(result, ROPE_SD_FRACTION, point_mass=False)
            notes.append(f"{result.method}: no decision "
                         f"({result.details['decision_withheld']}).")
        return result

    if len(names) == 2:
        sr = guarded(bayesian_signed_rank_test(v[:, 0], v[:, 1],
                                               prior_strength=signed_rank_prior, **dp))
        tests["bayesian_signed_rank"] = sr
        tests["bayesian_sign"] = guarded(bayesian_sign_test(
            v[:, 0], v[:, 1], prior_strength=sign_prior, **dp))
        words.append(_words(names, sr))
        if rope_rule != SD_RULE and np.ptp(v[:, 0] - v[:, 1]) > 0:
            # The frequentist twin of the ROPE over data sets: TOST, margin in score units
            # (not with the data-derived 0.1 sd width, which is no margin anyone chose).
            tests["tost"] = tost(v[:, 0], v[:, 1], margin=float(rope))
            words.append(equivalence_words(tests["tost"], *names, alpha=report.alpha,
                                           metric=scores.metric,
                                           higher_is_better=scores.higher_is_better,
                                           rule="" if rope_rule == "given" else rope_rule))
        if folds is not None:
            pt = guarded(poisson_test([f[:, 0] for f in folds[0]], [f[:, 1] for f in folds[0]],
                                      rho=folds[1], rope=rope, threshold=threshold))
            tests["poisson"] = pt
            words.append(_words(names, pt))
    else:
        chosen = report.details.get("pairs")
        shown = None if not chosen else shown_pairs(names, chosen)
        pr = guarded(pairwise_bayesian_signed_rank_test(
            v, names=names, prior_strength=signed_rank_prior, **dp))
        post["bayesian_signed_rank"] = pr
        words += _pair_words(pr, shown)
        if folds is not None:
            pp = guarded(pairwise_poisson_test(folds[0], rho=folds[1], names=names, rope=rope,
                                               threshold=threshold))
            post["poisson"] = pp
            words += _pair_words(pp, shown)
    details = dict(report.details, rope=rope, rope_rule=rope_rule, threshold=threshold,
                   min_data_sets=min_data_sets(threshold))
    return replace(report, tests=tests, posthoc=post, conclusions=report.conclusions + tuple(words),
                   warnings=report.warnings + tuple(notes), details=details)


def _words(names, res) -> str:
    a, b = names
    if res.details.get("zero_rope"):   # no ROPE to speak of: no probabilities either
        return f"{res.method}: no decision between {a} and {b} ({res.details['decision_withheld']})."
    return conclusion(res.method, a, b, decision=res.decision,
                      evidence=probability_summary(a, b, res))


def _pair_words(res: PairwiseResult, shown=None) -> list[str]:
    """Sentences of the pairs a decision was reached on (``decision[i, j]``: "A" = row i);
    with ``shown`` (:func:`._pair_choice.shown_pairs`) those of the chosen pairs, and how
    many of all pairs reach a decision when some are not shown."""
    names, decision = res.names, np.asarray(res.decision, dtype=object)
    p_rope = np.asarray(res.p_rope, dtype=float)
    decided = [(i, j) for i, j in res.pairs() if decision[i, j] != "undecided"]
    visible = decided if shown is None else [(i, j) for i, j in decided if shown["mask"][i, j]]
    tested = len(res.pairs())
    listed = sum(bool(shown["mask"][i, j]) for i, j in res.pairs()) if shown else tested
    out = [conclusion(res.method, names[i], names[j], decision=decision[i, j],
                      evidence=f"P({names[i]} better) = {res.statistic[i, j]:.3f}, "
                               f"P(equivalent) = {p_rope[i, j]:.3f}, "
                               f"P({names[j]} better) = {res.statistic[j, i]:.3f}")
           for i, j in visible]
    if listed < tested and "decision_withheld" not in res.details:
        out.append(count_sentence(res.method, len(decided), tested, listed, shown["rule"],
                                  verb="reach a decision"))
    if "decision_withheld" in res.details:
        out.append(f"{res.method}: no decision ({res.decision_withheld}).")
    elif not decided:
        out.append(f"{res.method}: no pair reaches a decision at the threshold.")
    for cycle in res.cycles:
        out.append(f"{res.method}: non-transitive 'better than' cycle "
                   + " > ".join(map(str, cycle)) + " (Lacoste et al. 2012 §5.1).")
    return out
