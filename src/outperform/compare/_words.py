"""The one place where the direction of a comparison becomes words.

Every sentence of a report that names a better model is written by :func:`conclusion` (or,
as a phrase inside a longer sentence, by :func:`claim`), from one of two kinds of decision:

- a frequentist decision (``True`` when the test rejects at its level) and the *signed
  estimate* of the pair: the difference A − B of a quantity (an error rate, a mean score,
  an average rank, the signed-rank sums, ...) and whether higher of that quantity is better.
  The better model is the one the estimate favours (:func:`favoured`). A test statistic's
  sign is never used: McNemar's statistic and Wilcoxon's T are never negative, so their sign
  says nothing about which model is better.
- a Bayesian decision (``"A better"``, ``"B better"``, ``"practically equivalent"``,
  ``"undecided"``; Williams 2026 §5.2), taken by the posterior in the stated direction.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

A_BETTER, B_BETTER = "A better", "B better"
BAYES_DECISIONS = (A_BETTER, B_BETTER, "practically equivalent", "undecided")


def favoured(difference: float, *, higher_is_better: bool) -> int:
    """Which side a signed difference A − B favours: +1 for A, −1 for B, 0 for neither.

    Parameters
    ----------
    difference : float
        Value of A minus value of B of a quantity (error rate, mean score, average rank, ...).
    higher_is_better : bool
        Whether a higher value of that quantity is better (False for losses, error rates and
        average ranks, where rank 1 is the best).

    Returns
    -------
    int
        0 when the difference is 0 or not finite (no direction).
    """
    d = float(difference)
    if not math.isfinite(d) or d == 0:
        return 0
    return 1 if (d > 0) == bool(higher_is_better) else -1


def _side(decision, difference, higher_is_better) -> int:
    if isinstance(decision, str):
        if decision not in BAYES_DECISIONS:
            raise ValueError(f"unknown decision {decision!r}; expected one of {BAYES_DECISIONS} "
                             "or a bool (the frequentist test rejects).")
        return {A_BETTER: 1, B_BETTER: -1}.get(decision, 0)
    return favoured(difference, higher_is_better=higher_is_better) if decision else 0


def claim(a: str, b: str, *, decision, difference: float = math.nan,
          higher_is_better: bool = True) -> str:
    """What a decision says about models ``a`` (A) and ``b`` (B), as a phrase.

    Parameters
    ----------
    a, b : str
        Names of models A and B.
    decision : bool or str
        A Bayesian decision (one of ``BAYES_DECISIONS``, "A" meaning ``a``), or whether a
        frequentist test rejects the null hypothesis of no difference.
    difference, higher_is_better :
        The signed estimate A − B and its direction (see :func:`favoured`); they name the
        better model when a frequentist test rejects.

    Returns
    -------
    str
        "X is significantly better than Y", "no significant difference between A and B",
        "X is practically better than Y", "A and B are practically equivalent" or "no
        decision between A and B".
    """
    side = _side(decision, difference, higher_is_better)
    if isinstance(decision, str):
        if side:
            better, worse = (a, b) if side > 0 else (b, a)
            return f"{better} is practically better than {worse}"
        return (f"{a} and {b} are practically equivalent" if decision == "practically equivalent"
                else f"no decision between {a} and {b}")
    if not decision:
        return f"no significant difference between {a} and {b}"
    if not side:
        return f"{a} and {b} differ significantly, but the estimate favours neither"
    better, worse = (a, b) if side > 0 else (b, a)
    return f"{better} is significantly better than {worse}"


def conclusion(test: str, a: str, b: str, *, decision, difference: float = math.nan,
               higher_is_better: bool = True, values: Sequence[float] | None = None,
               quantity: str = "", evidence: str = "", spec: str = ".3g", lead: str = "") -> str:
    """One conclusion of a report: ``"<test>: <lead><claim> (<quantity> x vs y; <evidence>)."``.

    Parameters
    ----------
    test : str
        Name of the test (or "label (CD = ...)") the sentence starts with.
    a, b : str
        Names of models A and B.
    decision : bool or str
        See :func:`claim`.
    difference : float
        Signed estimate A − B; ignored when ``values`` is given.
    higher_is_better : bool
        Direction of the estimate's quantity.
    values : (float, float), optional
        Values of the quantity for A and B: the difference is ``values[0] - values[1]``, and
        they are written as "<quantity> x vs y" in the order the claim names the models
        (better first).
    quantity : str
        Name of the quantity of ``values``, e.g. "error rate", "average ranks".
    evidence : str
        More facts in parentheses (p-values, probabilities); it must name the models it
        speaks of, since the claim may put them in either order.
    spec : str
        Format of ``values``.
    lead : str
        Words before the claim, e.g. "for the next task, ".

    Returns
    -------
    str

    Examples
    --------
    Issue 12: five classifiers, clf_E with 250 errors and clf_A with 84 on 1000 examples.

    >>> conclusion("McNemar", "clf_E", "clf_A", decision=True, values=(0.25, 0.084),
    ...            quantity="error rate", higher_is_better=False, evidence="adjusted p = 1.6e-23")
    'McNemar: clf_A is significantly better than clf_E (error rate 0.084 vs 0.25; adjusted p = 1.6e-23).'
    """
    if values is not None:
        difference = float(values[0]) - float(values[1])
    side = _side(decision, difference, higher_is_better)
    parts = []
    if values is not None:
        first, second = values if side >= 0 else values[::-1]
        parts.append(f"{quantity} {first:{spec}} vs {second:{spec}}".strip())
    if evidence:
        parts.append(evidence)
    text = claim(a, b, decision=decision, difference=difference,
                 higher_is_better=higher_is_better)
    return f"{test}: {lead}{text}" + (f" ({'; '.join(parts)})" if parts else "") + "."



def rejected_pairs(test: str, names: Sequence[str], a, b, values, *, quantity: str,
                   higher_is_better: bool, evidence: Sequence[str], spec: str = ".3g"
                   ) -> list[str]:
    """:func:`conclusion` with ``decision=True`` for many pairs of models at once.

    The sentences are those of ``conclusion(test, names[a[t]], names[b[t]], decision=True,
    values=(values[a[t]], values[b[t]]), ...)``, written from one formatted value per model
    (a post-hoc test may reject tens of thousands of pairs).

    Parameters
    ----------
    test : str
    names : sequence of str
        Model names, length k.
    a, b : array_like of int, shape (n,)
        Indices (into ``names``) of models A and B of each rejected pair.
    values : array_like of float, shape (k,)
        The quantity per model (e.g. average ranks); A − B names the better model.
    quantity, higher_is_better, spec :
        As for :func:`conclusion`.
    evidence : sequence of str, length n
        Each pair's evidence (it must name the models it speaks of, see :func:`conclusion`).

    Returns
    -------
    list of str, length n

    Examples
    --------
    >>> rejected_pairs("Nemenyi", ["A", "B", "C"], [0, 1], [2, 0], [1.2, 2.5, 2.3],
    ...                quantity="average ranks", higher_is_better=False, spec=".3f",
    ...                evidence=["p = 0.01", "p = 0.04"])  # doctest: +NORMALIZE_WHITESPACE
    ['Nemenyi: A is significantly better than C (average ranks 1.200 vs 2.300; p = 0.01).',
     'Nemenyi: A is significantly better than B (average ranks 1.200 vs 2.500; p = 0.04).']
    """
    v = np.asarray(values, dtype=float)
    a, b = np.asarray(a, dtype=np.intp), np.asarray(b, dtype=np.intp)
    d = v[a] - v[b]
    # favoured(): +1 for A, -1 for B, 0 when the difference is 0 or not finite
    side = np.where(~np.isfinite(d) | (d == 0), 0, np.where((d > 0) == bool(higher_is_better),
                                                            1, -1))
    shown = [f"{x:{spec}}" for x in v.tolist()]
    out = []
    for i, j, s, e in zip(a.tolist(), b.tolist(), side.tolist(), evidence):
        better, worse = (i, j) if s >= 0 else (j, i)
        text = (f"{names[better]} is significantly better than {names[worse]}" if s else
                f"{names[i]} and {names[j]} differ significantly, but the estimate favours "
                "neither")
        values_text = f"{quantity} {shown[better]} vs {shown[worse]}".strip()
        out.append(f"{test}: {text} ({values_text}; {e})." if e else
                   f"{test}: {text} ({values_text}).")
    return out

def constant_difference(test: str, a: str, b: str, *, difference: float,
                        higher_is_better: bool, quantity: str, n: int, units: str = "folds",
                        spec: str = ".3g") -> str:
    """A test left undefined because the pair's difference is the same on all ``n`` units.

    With no spread, a t statistic is 0/0 (no difference) or infinite (a constant one), and
    the test has no variance to weigh the difference against, so it gives no p-value; the
    sentence says so and states the difference, the better model named by its direction.

    Parameters
    ----------
    test : str
    a, b : str
        Names of models A and B.
    difference : float
        The common difference A − B of ``quantity`` (0: the models score the same).
    higher_is_better : bool
        Direction of ``quantity``.
    quantity : str
        What differs, e.g. "accuracy".
    n : int
        Number of units (folds) the difference is constant over.
    units, spec : str
        Name of the units; format of the difference.

    Returns
    -------
    str

    Examples
    --------
    >>> constant_difference("t-test", "A", "B", difference=-0.1, higher_is_better=False,
    ...                     quantity="error rate", n=2)
    "t-test: undefined, A's error rate is 0.1 lower than B's on each of the 2 folds (no spread, so no p-value)."
    """
    side = favoured(difference, higher_is_better=higher_is_better)
    if not side:
        what = f"{a} and {b} have the same {quantity} on each of the {n} {units}"
        then = "no evidence of a difference, and no p-value"
    else:
        better, worse = (a, b) if side > 0 else (b, a)
        what = (f"{better}'s {quantity} is {abs(difference):{spec}} "
                f"{'higher' if higher_is_better else 'lower'} than {worse}'s on each of the "
                f"{n} {units}")
        then = "no spread, so no p-value"
    return f"{test}: undefined, {what} ({then})."


def decision_label(a: str, b: str, decision: str) -> str:
    """A Bayesian decision as a table cell: "<a> better", "<b> better", or the decision."""
    side = _side(decision, math.nan, True)
    return f"{a if side > 0 else b} better" if side else decision


def probability_summary(a: str, b: str, res, spec: str = ".3f") -> str:
    """The three region probabilities of a Bayesian result, each formatted with ``spec``,
    and the Poisson test's remainder, the probability that no region holds a majority of the
    data sets (``details["p_no_majority"]``), so that the numbers stated sum to 1."""
    rest = res.details.get("p_no_majority") if hasattr(res, "details") else None
    return (f"P({a} better) = {res.p_a_better:{spec}}, P(equivalent) = {res.p_rope:{spec}}, "
            f"P({b} better) = {res.p_b_better:{spec}}"
            + (f", P(no majority) = {rest:{spec}}" if rest is not None else ""))


def equivalence_words(res, a: str, b: str, *, alpha: float, metric: str,
                      higher_is_better: bool, rule: str = "") -> str:
    """The TOST verdict (equivalence names no better model, so no ``conclusion`` phrase).

    ``res`` compares scores signed so that a positive difference favours ``a``; the sentence
    gives the difference of ``metric`` itself, a − b, and its (1 − 2α) interval.
    """
    s = 1.0 if higher_is_better else -1.0
    lo, hi = sorted(s * v for v in res.confidence_interval(1 - 2 * alpha))
    verdict = "equivalent" if res.pvalue < alpha else "not shown to be equivalent"
    rule = f", {rule}" if rule else ""
    return (f"{res.method}: {a} and {b} are {verdict} within ±{res.margin:g} "
            f"{metric} (the ROPE as margin{rule}; mean {metric} {a} − {b} = "
            f"{s * res.estimate:.4g}, {1 - 2 * alpha:.0%} confidence interval [{lo:.4g}, "
            f"{hi:.4g}]; p = {res.pvalue:.3g}).")


def best_words(test: str, best, *, metric: str = "score", spec: str = ".4g") -> list[str]:
    """The verdict of Hsu's comparisons with the best: which models could be the best, which
    is the best, and by how much each of the others may trail the best.

    Parameters
    ----------
    test : str
        The procedure's label, e.g. "Hsu's MCB".
    best : ComparisonWithBest
        Constrained intervals for μ_i − best_{j≠i} μ_j (:func:`outperform.stats.mcb`).
    metric : str
        What the means are of.
    spec : str
        Format of the bounds.

    Returns
    -------
    list of str
        One sentence for the models that could be the best (or the one that is the best),
        one for those worse than the best.

    Examples
    --------
    >>> import numpy as np
    >>> from outperform.results._best import ComparisonWithBest
    >>> res = ComparisonWithBest(names=("A", "B", "C"), means=np.array([0.9, 0.88, 0.7]),
    ...     difference=np.array([0.02, -0.02, -0.2]), lower=np.array([-0.01, -0.05, -0.23]),
    ...     upper=np.array([0.05, 0.01, 0.0]), pvalue=np.array([0.9, 0.3, 0.001]),
    ...     critical_value=2.2, standard_error=0.014, df=20.0, mse=0.001, n_blocks=11,
    ...     higher_is_better=True, alpha=0.05)
    >>> for s in best_words("Hsu's MCB", res, metric="accuracy"):
    ...     print(s)
    Hsu's MCB: A, B could be the best at the simultaneous 95% level (mean accuracy minus the best of the others: A [-0.01, +0.05], B [-0.05, +0.01]).
    Hsu's MCB: C is worse than the best (its mean accuracy trails the best of the others by at most 0.23; p = 0.001).
    """
    level = f"{100 * (1 - best.alpha):g}%"
    order = np.argsort(-best.means if best.higher_is_better else best.means, kind="stable")
    could = [int(i) for i in order if best.could_be_best[i]]
    worse = [int(i) for i in order if not best.could_be_best[i]]
    what = f"mean {metric} minus the best of the others"
    out = []
    sure = [i for i in could if best.is_best[i]]
    if sure:
        i = sure[0]
        out.append(f"{test}: {best.names[i]} is the best at the simultaneous {level} level "
                   f"({what}: [{best.lower[i]:+{spec}}, {best.upper[i]:+{spec}}]).")
    elif could:
        ranges = ", ".join(f"{best.names[i]} [{best.lower[i]:+{spec}}, "
                           f"{best.upper[i]:+{spec}}]" for i in could)
        names = ", ".join(best.names[i] for i in could)
        out.append(f"{test}: {names} could be the best at the simultaneous {level} level "
                   f"({what}: {ranges}).")
    if worse:
        side = best.lower if best.higher_is_better else best.upper
        if len(worse) == 1:
            i = worse[0]
            out.append(f"{test}: {best.names[i]} is worse than the best (its mean {metric} "
                       f"trails the best of the others by at most {abs(side[i]):{spec}}; "
                       f"p = {best.pvalue[i]:.3g}).")
        else:
            trail = ", ".join(f"{best.names[i]} by at most {abs(side[i]):{spec}} "
                              f"(p = {best.pvalue[i]:.3g})" for i in worse)
            out.append(f"{test}: {', '.join(best.names[i] for i in worse)} are worse than "
                       f"the best (mean {metric} trailing the best of the others: {trail}).")
    return out
def _names_list(names: Sequence[str], most: int = 10) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def mcs_pvalue_text(p: float, n_resamples: int) -> str:
    """A bootstrap p-value as text: below the resolution 1/B it is "< 1/B", not 0.

    Examples
    --------
    >>> mcs_pvalue_text(0.0, 1000), mcs_pvalue_text(0.0123, 1000)
    ('< 0.001', '0.0123')
    """
    return f"< {1 / n_resamples:.2g}" if p == 0 else f"{p:.3g}"


def mcs_words(mcs) -> str:
    """The sentence of a model confidence set (Hansen, Lunde & Nason 2011): which models could
    be the best at its level, and which are worse than the best, with their MCS p-values.

    Examples
    --------
    >>> from types import SimpleNamespace as S
    >>> m = S(confidence_level=0.9, included=("a", "b"), names=("a", "b", "c"),
    ...       elimination_order=("c", "b", "a"), pvalues=np.array([1.0, 0.4, 0.012]),
    ...       alpha=0.1, statistic="R", n_resamples=1000, bootstrap="stationary", block_size=1,
    ...       n_clusters=None, n_items=500, unit="item")
    >>> print(mcs_words(m))
    Model confidence set at 90% (Hansen, Lunde & Nason 2011; T_R, 1000 stationary bootstrap resamples of the 500 items, block size 1): a, b could be the best; c is worse than the best (MCS p = 0.012).
    """
    level = f"{100 * mcs.confidence_level:g}%"
    units = (f"{mcs.n_clusters} clusters" if mcs.n_clusters is not None
             else f"{mcs.n_items} {mcs.unit}s")
    head = (f"Model confidence set at {level} (Hansen, Lunde & Nason 2011; T_{mcs.statistic}, "
            f"{mcs.n_resamples} {mcs.bootstrap} bootstrap resamples of the {units}, block "
            f"size {mcs.block_size}): ")
    out = [m for m in mcs.elimination_order if m not in mcs.included][::-1]
    p = {m: float(mcs.pvalues[j]) for j, m in enumerate(mcs.names)}
    kept = (f"{mcs.included[0]} is the only model that could be the best"
            if len(mcs.included) == 1 else
            f"{_names_list(list(mcs.included))} could be the best")
    if not out:
        return head + f"{kept}: the data do not single out a worse model."
    worse = ", ".join(f"{m}" for m in out[:10]) + \
        (f" and {len(out) - 10} more" if len(out) > 10 else "")
    verb = "is" if len(out) == 1 else "are"
    def rel(m):
        text = mcs_pvalue_text(p[m], mcs.n_resamples)
        return text if text.startswith("<") else f"= {text}"
    ps = ("MCS p-values: " + ", ".join(f"{m} {rel(m)}" for m in out[:10])) if len(out) > 1 \
        else f"MCS p {rel(out[0])}"
    return head + f"{kept}; {worse} {verb} worse than the best ({ps})."


def aso_words(res) -> list[str]:
    """Sentences of almost stochastic order (Dror et al. 2019): for each pair, which model is
    almost stochastically better (ε_min < τ), or that neither is.

    Examples
    --------
    >>> from types import SimpleNamespace as S
    >>> r = S(names=("A", "B"), eps_min=np.array([[np.nan, 0.08], [0.97, np.nan]]), tau=0.2,
    ...       level=0.95, task=None, pairs=lambda: [(0, 1)])
    >>> aso_words(r)
    ['A is almost stochastically better than B (ε_min = 0.08 < τ = 0.2 at 95%; ε_min(B, A) = 0.97).']
    """
    out = []
    where = f" on {res.task}" if res.task is not None else ""
    level = f"{100 * res.level:.4g}%"
    for i, j in res.pairs():
        a, b = res.names[i], res.names[j]
        ab, ba = float(res.eps_min[i, j]), float(res.eps_min[j, i])
        if min(ab, ba) < res.tau:
            (w, lo), (l_, hi) = ((a, ab), (b, ba)) if ab <= ba else ((b, ba), (a, ab))
            out.append(f"{w} is almost stochastically better than {l_}{where} (ε_min = "
                       f"{lo:.3g} < τ = {res.tau:g} at {level}; ε_min({l_}, {w}) = {hi:.3g}).")
        else:
            out.append(f"Neither {a} nor {b} is almost stochastically better{where} "
                       f"(ε_min({a}, {b}) = {ab:.3g}, ε_min({b}, {a}) = {ba:.3g}; τ = "
                       f"{res.tau:g} at {level}).")
    return out


def replicability_words(better: str, worse: str, res) -> str:
    """The sentence of a replicability analysis (Dror et al. 2017) of "``better`` beats
    ``worse``" over data sets: k̂ by Bonferroni and Fisher, and Holm's list.

    Examples
    --------
    >>> from types import SimpleNamespace as S
    >>> r = S(k_bonferroni=1, k_fisher=2, n_data_sets=6, alpha=0.05, rejected_names=("d6",))
    >>> print(replicability_words("A", "B", r))
    A beats B on at least 1 of 6 data sets by Bonferroni's count and on at least 2 by Fisher's (replicability analysis, Dror et al. 2017, α = 0.05); Holm's procedure names d6.
    """
    if res.k_bonferroni == 0 and res.k_fisher == 0:
        return (f"Neither Bonferroni's nor Fisher's count finds a data set on which {better} "
                f"beats {worse}, of {res.n_data_sets} (replicability analysis, Dror et al. "
                f"2017, α = {res.alpha:g}).")
    names = _names_list(list(res.rejected_names))
    which = (f"Holm's procedure names {names}" if res.rejected_names
             else "Holm's procedure names no single data set")
    return (f"{better} beats {worse} on at least {res.k_bonferroni} of "
            f"{res.n_data_sets} data sets by Bonferroni's count and on at least "
            f"{res.k_fisher} by Fisher's (replicability analysis, Dror et al. 2017, "
            f"α = {res.alpha:g}); {which}.")


def style_control_words(result, most: int = 5) -> list[str]:
    """Sentences on a style-controlled leaderboard: the style coefficients (which way each
    style feature sways the votes) and the models whose rank moves under control.

    ``result`` is a :class:`~outperform.results.StyleControlResult`; a coefficient whose
    interval excludes 0 is called significant at its level.
    """
    level = f"{100 * result.confidence_level:g}%"
    lines = []
    for k, name in enumerate(result.features):
        b, lo, hi = result.coefficients[k], result.coefficient_low[k], result.coefficient_high[k]
        if lo > 0 or hi < 0:
            way = "more" if b > 0 else "less"
            lines.append(f"Votes favour the answer with {way} {name} than its opponent's: "
                         f"coefficient {b:+.3f} per sd of the normalised difference, {level} "
                         f"interval [{lo:+.3f}, {hi:+.3f}].")
        else:
            lines.append(f"No significant effect of {name} on the votes (coefficient "
                         f"{b:+.3f}, {level} interval [{lo:+.3f}, {hi:+.3f}] contains 0).")
    change = result.rank_change
    moved = np.flatnonzero(change != 0)
    if moved.size == 0:
        lines.append("Controlling for style changes no model's rank.")
    else:
        moved = moved[np.argsort(-np.abs(change[moved]), kind="stable")][:most]
        parts = [f"{result.models[i]} {result.uncontrolled_rank[i]} → {result.rank[i]}"
                 for i in moved]
        lines.append(f"Controlling for style moves {int((change != 0).sum())} of "
                     f"{len(result.models)} models (rank without → with control): "
                     + "; ".join(parts) + ".")
    return lines
