"""Q2: learning algorithms compared on one task from a paired resampling design.

Decision logic (Corani & Benavoli 2015; Nadeau & Bengio 2003; Williams 2026 §5): fold scores
overlap in their training sets, so the naive t-test over folds is not calibrated and is never
used. Each pair gets the corrected resampled t-test (frequentist) and the correlated Bayesian
t-test with a ROPE (Bayesian); with more than two algorithms, the p-values are Holm-adjusted.
A pair whose fold differences are all equal (two models scoring alike on a 2-split holdout)
has no variance: its t-test is undefined (NaN p-value, left out of Holm's family, a sentence
stating the difference) while the Bayesian test gives its point-mass limit.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
from scipy import stats

from .._validation import InvalidInputError, TooFewError, check_probability
from ..bayes._correlated_ttest import correlated_bayesian_ttests
from ..data._results_table import ResultsTable
from ..data._schema import FOLD, N_TEST, N_TRAIN, RUN
from ..results import ComparisonReport, FrequentistResult, PairwiseResult
from ..stats._correlated_ttest import correlation_heuristic, corrected_resampled_ttests
from ..stats._multipletests import adjust_pvalues
from ..stats._tost import tost
from ._guards import unit_mismatch, withhold_zero_rope
from ._words import conclusion, constant_difference, equivalence_words, probability_summary

ROPE_SD_FRACTION = 0.1  # Williams (2026) §5.2: ROPE = ±0.1 sd of the differences by default
# Fewer paired fold scores than this leave the t-tests under 4 degrees of freedom: warn.
FEW_FOLDS = 5
# Fold differences whose spread is below this fraction of the scores' magnitude are equal up
# to the rounding of the subtraction (about 1e-16 relative): 0.1 - 0.0 and 0.9 - 0.8 are one
# difference, not a spread of 3e-17 that would make t ~ 1e15.
CONSTANT_RTOL = 1e-12
T_METHOD = "corrected resampled t-test (Nadeau & Bengio)"


def _rho(table: ResultsTable, task: str, rho: float | None) -> tuple[float, str]:
    if rho is not None:
        return float(rho), "given"
    frame = table.frame[table.frame["task"] == task]
    if N_TRAIN in frame.columns and N_TEST in frame.columns:
        return (correlation_heuristic(frame[N_TRAIN].to_numpy(), frame[N_TEST].to_numpy()),
                "n_test / (n_train + n_test) from the table (Nadeau & Bengio 2003)")
    if FOLD in frame.columns:
        per_run = frame.groupby(RUN)[FOLD].nunique() if RUN in frame.columns else None
        k = int(per_run.iloc[0]) if per_run is not None else int(frame[FOLD].nunique())
        if k >= 2:
            return 1.0 / k, f"1/k for {k}-fold cross-validation"
    raise InvalidInputError(
        "cannot tell the correlation between folds: add n_train and n_test columns, a fold "
        "column of k-fold CV, or pass rho= (--rho), e.g. 0.1 for 10-fold CV.")


def compare_one_task(table: ResultsTable, *, metric: str | None = None, alpha: float = 0.05,
                     rope: float | None = None, rho: float | None = None,
                     threshold: float = 0.95, control: str | None = None) -> ComparisonReport:
    """Compare algorithms on one task from their per-fold scores (Williams Q2).

    Parameters
    ----------
    table : ResultsTable
        One task, several measurements per model paired by ``run``/``fold``.
    metric : str, optional
    alpha : float
        Level of the corrected resampled t-test (two-sided).
    rope : float, optional
        Half-width of the ROPE in metric units; default 0.1 x sd of the fold differences of
        each pair (Williams 2026 §5.2). A given ROPE is also the margin of a TOST
        equivalence test with the corrected variance (two models: ``tests["tost"]``).
    rho : float, optional
        Correlation of fold differences; default from n_train/n_test or 1/k.
    threshold : float
        Decision threshold of the Bayesian test.
    control : str, optional
        Compare every model with this one only.

    Returns
    -------
    ComparisonReport
        ``question="Q2"``. With two models ``tests`` holds ``corrected_t`` and
        ``correlated_bayes``; with more, ``posthoc`` holds the Holm-adjusted pairwise table.

    Raises
    ------
    TooFewError
        Fewer than 2 folds (a single split: use McNemar on per-example predictions instead).
    InvalidInputError
        Several tasks, unknown control, unknown correlation.
    """
    check_probability(alpha, "alpha")
    if len(table.tasks) != 1:
        raise InvalidInputError(f"Q2 compares on one task; the table has {len(table.tasks)}.")
    task = table.tasks[0]
    metric = table.default_metric(metric)
    hib = table.metrics[metric]
    if table.measurements_per_cell < 2:
        raise TooFewError(
            "one measurement per model: a single train/test split cannot be compared with a "
            "resampling test. Compare the per-example predictions with McNemar's test "
            "(Dietterich 1998) via compare-predictions, or run cross-validation.")
    names = table.models
    if control is not None and control not in names:
        raise InvalidInputError(f"control {control!r} is not one of the models {list(names)}.")
    scores = table.paired_replicates(task, metric)
    warnings = unit_mismatch(scores) + _few_folds(len(next(iter(scores.values()))), alpha)
    sign = 1.0 if hib else -1.0
    r, rho_source = _rho(table, task, rho)
    if r == 0:
        warnings.append(_naive_rho_warning(table, task))
        rho_source += ": the naive t-test, see the warnings"
    if rope is not None and float(rope) == 0:
        warnings.append(_zero_rope_note(len(names)))
    # Two models: one pair, A = the first model whatever the control, since the report's
    # tables name A and B after ``models`` (a control second would swap the columns).
    pairs = ([(names.index(control), j) for j in range(len(names)) if names[j] != control]
             if control and len(names) > 2 else list(combinations(range(len(names)), 2)))
    # Both tests of all pairs in one batch each (the same results as pair by pair).
    rows = np.array(pairs).T
    signed = sign * np.stack([scores[m] for m in names])
    freq = dict(zip(pairs, _corrected_t(signed[rows[0]], signed[rows[1]], r)))
    # 0.1 sd of the differences; 0 when they are equal (their sd is then rounding noise).
    sds = np.std(signed[rows[0]] - signed[rows[1]], axis=1, ddof=1)
    widths = {ij: (float(rope) if rope is not None else
                   0.0 if "undefined" in freq[ij].details else ROPE_SD_FRACTION * float(sd))
              for ij, sd in zip(pairs, sds)}
    bayes = dict(zip(pairs, correlated_bayesian_ttests(
        signed[rows[0]], signed[rows[1]], rho=r, ropes=[widths[ij] for ij in pairs],
        threshold=threshold)))
    if rope is None:
        # A default ROPE of 0.1 x sd = 0 (no spread) is no ROPE: the point-mass posterior's
        # "practically better, P = 1" would be certainty from nothing (issue 25).
        bayes = {ij: withhold_zero_rope(res, ROPE_SD_FRACTION) if widths[ij] == 0 else res
                 for ij, res in bayes.items()}
        warnings += [f"{bayes[i, j].method}, {names[i]} vs {names[j]}: no decision ("
                     f"{bayes[i, j].details['decision_withheld']})."
                     for i, j in pairs if "zero_rope" in bayes[i, j].details]
    summary = tuple(sorted(
        ({"model": m, "mean_score": float(np.mean(v)), "sd_over_folds": float(np.std(v, ddof=1)),
          "n_folds": int(v.size)} for m, v in scores.items()),
        key=lambda row: -sign * row["mean_score"]))
    # One ROPE for all pairs when given (or with one pair), else each pair's own width.
    details = {"task": task, "rho": r, "rho_source": rho_source,
               "rope": (float(rope) if rope is not None else
                        next(iter(widths.values())) if len(widths) == 1 else None),
               "rope_rule": ("given" if rope is not None else
                             f"{ROPE_SD_FRACTION} x sd of the fold differences of each pair "
                             "(Williams 2026 §5.2)"),
               "threshold": threshold}
    rationale = ("resampled scores share training data, so the naive t-test over folds is "
                 "miscalibrated (Nadeau & Bengio 2003; Corani & Benavoli 2015 §2): the corrected "
                 f"resampled t-test and the correlated Bayesian t-test use rho = {r:.3g} "
                 f"({rho_source}).")
    common = dict(question="Q2", metric=metric, higher_is_better=hib, models=names, n_tasks=1,
                  alpha=alpha, summary=summary, rationale=rationale, control=control,
                  details=details, warnings=tuple(warnings))
    means = {m: float(np.mean(v)) for m, v in scores.items()}
    words = dict(metric=metric, hib=hib, means=means, alpha=alpha)
    if len(names) == 2:
        (i, j), = pairs
        f, b = freq[i, j], bayes[i, j]
        tests = {"corrected_t": f, "correlated_bayes": b}
        said = (_bayes_words(names[i], names[j], b, **words),
                _freq_words(names[i], names[j], f, f.pvalue, "p", **words))
        if rope is not None and float(rope) > 0 and "undefined" not in f.details:
            # The frequentist twin of the given ROPE: TOST with the corrected variance.
            tests["tost"] = tost(sign * scores[names[i]], sign * scores[names[j]],
                                 margin=float(rope), rho=r)
            said += (equivalence_words(tests["tost"], names[i], names[j], alpha=alpha,
                                       metric=metric, higher_is_better=hib),)
        return ComparisonReport(tests=tests, recommended="correlated_bayes", conclusions=said,
                                **common)
    post = _pairwise(names, pairs, freq, bayes, widths, alpha, control)
    conclusions = [_bayes_words(names[i], names[j], bayes[i, j], **words) for i, j in pairs]
    shown = [(i, j) for i, j in pairs if post.reject[i, j] or "undefined" in freq[i, j].details]
    conclusions += [_freq_words(names[i], names[j], freq[i, j], post.pvalue_adjusted[i, j],
                                "Holm-adjusted p", **words) for i, j in shown]
    if not any(post.reject[i, j] for i, j in pairs):
        conclusions.append(f"{post.method}: no pair differs significantly at α = {alpha}.")
    return ComparisonReport(tests={}, recommended="", posthoc={"corrected_t_holm": post},
                            conclusions=tuple(conclusions), **common)


def _corrected_t(a: np.ndarray, b: np.ndarray, rho: float) -> list[FrequentistResult]:
    """The corrected resampled t-test of each pair (rows of a and b), or its undefined result
    at zero variance.

    When every fold difference of a pair is the same (up to rounding, :data:`CONSTANT_RTOL`),
    the t statistic is 0/0 or infinite and the test has no variance to weigh the difference
    against: the result has NaN statistic and p-value, the common difference as
    ``estimate`` and the reason in ``details["undefined"]``.
    """
    d = a - b
    scale = np.maximum(np.max(np.abs(a), axis=1), np.max(np.abs(b), axis=1))
    varies = np.ptp(d, axis=1) > CONSTANT_RTOL * scale
    tested = iter(corrected_resampled_ttests(a[varies], b[varies], rho=rho)
                  if varies.any() else ())
    return [next(tested) if v else _undefined(row, float(s), rho)
            for row, s, v in zip(d, scale, varies)]


def _undefined(d: np.ndarray, scale: float, rho: float) -> FrequentistResult:
    common = float(np.median(d))
    common = 0.0 if abs(common) <= CONSTANT_RTOL * scale else common
    return FrequentistResult(
        statistic=float("nan"), pvalue=float("nan"), method=T_METHOD, df=float(d.size - 1),
        estimate=common,
        details={"n_folds": int(d.size), "rho": rho,
                 "undefined": f"all {d.size} fold differences equal {common:.6g}: zero "
                              "variance, so the t statistic and its p-value are undefined"})


def _naive_rho_warning(table: ResultsTable, task: str) -> str:
    """rho = 0 turns both tests into their naive versions: say so, with the design's rho."""
    try:
        default, source = _rho(table, task, None)
        instead = f" The default for this design is rho = {default:.3g} ({source})."
    except InvalidInputError:
        instead = ""
    return ("rho = 0: the corrected resampled t-test is then the naive paired t-test over "
            "folds, and the correlated Bayesian t-test ignores the correlation too. Folds of "
            "one data set share training data, and the naive test's type I error is then "
            "well above α (Dietterich 1998; Nadeau & Bengio 2003): its p-values and "
            "decisions are too confident. rho = 0 fits only training and test sets drawn "
            "independently for every fold." + instead)


def _zero_rope_note(k: int) -> str:
    """rope = 0 (baycomp's default): the Bayesian test runs; TOST needs a positive margin."""
    skipped = ("; the TOST equivalence test, whose margin is the ROPE, needs a positive "
               "margin and was not run" if k == 2 else "")
    return ("rope = 0: no region of practical equivalence, so the correlated Bayesian "
            "t-test decides only which model is better (P(equivalent) = 0, as baycomp's "
            f"default){skipped}.")


def _few_folds(n: int, alpha: float) -> list[str]:
    if n >= FEW_FOLDS:
        return []
    df = n - 1
    critical = float(stats.t.ppf(1 - alpha / 2, df))
    return [f"only {n} paired fold scores per model: the corrected t-test has {df} degree(s) "
            f"of freedom (two-sided critical value {critical:.3g} at α = {alpha}) and the "
            "correlated Bayesian t-test a Student posterior as wide, so both can miss a real "
            "difference. Repeat the cross-validation for a usable comparison (10 runs of "
            "10-fold: Bouckaert 2003, cited by Corani & Benavoli 2015 §2)."]


def _pairwise(names, pairs, freq, bayes, widths, alpha, control) -> PairwiseResult:
    k = len(names)
    stat, p, p_better, p_rope, rope = (np.full((k, k), np.nan) for _ in range(5))
    for (i, j), res in freq.items():
        rope[i, j] = rope[j, i] = widths[i, j]
        stat[i, j], stat[j, i] = res.statistic, -res.statistic
        p[i, j] = p[j, i] = res.pvalue
        if "zero_rope" in bayes[i, j].details:    # no ROPE to speak of: no probabilities
            continue
        p_better[i, j], p_better[j, i] = bayes[i, j].p_a_better, bayes[i, j].p_b_better
        p_rope[i, j] = p_rope[j, i] = bayes[i, j].p_rope
    # Pairs without a p-value (zero variance) are not tests: Holm's family is the others.
    tested = [(i, j) for i, j in pairs if np.isfinite(p[i, j])]
    adj = np.full((k, k), np.nan)
    if tested:
        idx = tuple(np.array(tested).T)
        adj[idx] = adjust_pvalues(p[idx], "holm")
        adj[idx[::-1]] = adj[idx]
    return PairwiseResult(
        method="corrected resampled t-test, Holm-adjusted", names=names, statistic=stat,
        pvalue=p, pvalue_adjusted=adj, reject=np.nan_to_num(adj, nan=1.0) < alpha, alpha=alpha,
        adjustment="holm", control=control,
        details={"p_row_better": p_better.tolist(), "p_rope": p_rope.tolist(),
                 "rope": rope.tolist()})


def _bayes_words(a, b, res, *, metric, hib, means, alpha) -> str:
    if "decision_withheld" in res.details:
        return f"{res.method}: no decision between {a} and {b} ({res.details['decision_withheld']})."
    lo, hi = res.rope
    return conclusion(res.method, a, b, decision=res.decision, values=(means[a], means[b]),
                      quantity=f"mean {metric}", higher_is_better=hib,
                      evidence=f"{probability_summary(a, b, res)}; ROPE [{lo:.3g}, {hi:.3g}] "
                               f"{metric}, threshold {res.threshold}")


def _freq_words(a, b, res, p, label, *, metric, hib, means, alpha) -> str:
    if "undefined" in res.details:
        # res.estimate is the common difference of the higher-is-better scores A - B.
        return constant_difference("corrected resampled t-test", a, b,
                                   difference=res.estimate if hib else -res.estimate,
                                   higher_is_better=hib, quantity=metric,
                                   n=res.n_folds)
    return conclusion("corrected resampled t-test", a, b, decision=bool(p < alpha),
                      values=(means[a], means[b]), quantity=f"mean {metric}",
                      higher_is_better=hib,
                      evidence=f"{label} = {p:.3g} " + ("<" if p < alpha else ">=") + f" {alpha}")
