"""Q3's sentences: the omnibus verdict and the post-hoc pairs (procedures' names and
phrases come from the registry, :mod:`._registry`).

Split from :mod:`._q3`; every sentence naming a better model comes from :mod:`._words`.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..results import PairwiseResult
from ._pair_choice import hidden_pairs
from ._registry import label as registered_label
from ._words import conclusion, rejected_pairs


def conclusions(omnibus, post, groups, ranks, names, alpha, perfect=False,
                shown=None) -> list[str]:
    """The omnibus verdict, then each post-hoc result's significant pairs.

    ``shown`` (``{"mask": k x k bool, "rule": str}``, see
    :func:`outperform.compare._pair_choice.shown_mask`) limits the pair sentences to the
    chosen pairs and adds, when some pairs are not shown, how many of all differ.
    """
    k = len(names)
    out = []
    # F is infinite when every data set ranks the algorithms in the same order (Friedman's
    # chi-square at its maximum N(k - 1)): say so rather than print "F = inf" alone.
    same_order = (" — every data set ranks the algorithms in the same order, so the "
                  "Friedman statistic is at its maximum, F is infinite and p is the exact "
                  "probability of such agreement under the null hypothesis, (k!)^(1 - N)"
                  if perfect else "")
    # Over few data sets the permutation distribution of Friedman's statistic decides.
    what = (f"Friedman with Iman–Davenport F = {omnibus.statistic:.3f}"
            if "exact" not in omnibus.details else
            f"Friedman chi2_F = {omnibus.statistic:.3f}, "
            + ("exact" if omnibus.details["exact"] else "Monte Carlo") + " permutation")
    if omnibus.pvalue < alpha:
        out.append(f"The algorithms differ ({what}, "
                   f"p = {omnibus.pvalue:.3g} < {alpha}{same_order}).")
    else:
        # Without a post-hoc test (posthoc='none') there are no results below to qualify.
        out.append(f"No significant difference among the {k} algorithms ({what.removeprefix('Friedman with ')}, "
                   f"p = {omnibus.pvalue:.3g} >= {alpha}{same_order})"
                   + ("; post-hoc results below are descriptive." if post else "."))
    for key, res in post.items():
        rows, cols = _rejected(res)
        label = registered_label(key)
        cd = f" (CD = {res.critical_difference:.3f})" if res.critical_difference else ""
        if not len(rows):
            out.append(f"{label}{cd} finds no significantly different pair at α = {alpha}.")
            continue
        count = hidden_pairs(f"{label}{cd}", res, len(rows), shown)
        if count is not None:
            keep = shown["mask"][rows, cols]
            rows, cols = rows[keep], cols[keep]
        if "rank_biserial" in res.details:
            out += [pair_conclusion(f"{label}{cd}", res, i, j, ranks, names)
                    for i, j in zip(rows.tolist(), cols.tolist())]
        elif "mean_difference" in res.details:   # Dunnett: the better model by the means
            out += rejected_pairs(
                label, names, rows, cols, np.asarray(res.details["means"], dtype=float),
                quantity="mean scores", higher_is_better=res.details["higher_is_better"],
                spec=".4g", evidence=[f"adjusted p = {p:.3g}"
                                      for p in res.pvalue_adjusted[rows, cols].tolist()])
        else:   # rank tests: the better model by the average ranks, as _pair_conclusion
            out += rejected_pairs(
                f"{label}{cd}", names, rows, cols, ranks, quantity="average ranks",
                higher_is_better=False, spec=".3f",
                evidence=[f"adjusted p = {p:.3g}"
                          for p in res.pvalue_adjusted[rows, cols].tolist()])
        out += [] if count is None else [count]
        if key in groups:
            count = Counter(m for g in groups[key] for m in g)
            unplaced = [m for m in names if count[m] > 1]
            if unplaced:
                out.append(f"{label}: the data are not sufficient to tell which group "
                           f"{', '.join(unplaced)} belong(s) to (Demšar 2006 §3.2.2).")
    return out


def _rejected(res: PairwiseResult) -> tuple[np.ndarray, np.ndarray]:
    """Indices (i, j) of the rejected pairs, in the order of ``res.pairs()``."""
    k = len(res.names)
    if res.control is not None:
        c = res.names.index(res.control)
        cols = np.delete(np.arange(k), c)
        rows = np.full(k - 1, c)
    else:
        rows, cols = np.triu_indices(k, 1)
    hit = res.reject[rows, cols]
    return rows[hit], cols[hit]


def pair_conclusion(test, res, i, j, ranks, names) -> str:
    """A rejected pair, the better model named by the post-hoc test's own estimate."""
    p = f"adjusted p = {res.pvalue_adjusted[i, j]:.3g}"
    if "rank_biserial" in res.details:   # pairwise Wilcoxon: the pair's own signed ranks
        r = float(np.asarray(res.details["rank_biserial"], dtype=float)[i, j])
        return conclusion(test, names[i], names[j], decision=True, difference=r,
                          higher_is_better=True,
                          evidence=f"matched-pairs rank-biserial correlation {abs(r):.3f}, {p}")
    return conclusion(test, names[i], names[j], decision=True, values=(ranks[i], ranks[j]),
                      quantity="average ranks", higher_is_better=False, spec=".3f", evidence=p)

