"""McNemar's test for two classifiers on one test set, and Cochran's Q for several.

Sign convention (used by every 0/1-loss function of the package)
-----------------------------------------------------------------
A 2 x 2 table ``[[n00, n01], [n10, n11]]`` is indexed by correctness, **first digit model A,
second digit model B, 0 = wrong, 1 = right** (Williams 2026 §5.1 and Table 1):

* ``n00``: both wrong;  ``n11``: both right;
* ``n01``: **A wrong, B right** (Lacoste et al. 2012 §4: k_h with h = A's classifier);
* ``n10``: **A right, B wrong** (k_g).

The Bayesian McNemar parameter is phi = theta01 / (theta01 + theta10), the share of A's errors
among the discordant examples, so **phi < 0.5 favours A** (Williams 2026 §5.4) and the Bayesian
result has ``a_better_side = "left"``. Williams (§5.1) defines Cohen's g = phi_hat - 1/2; the
package reports its negative, g = 1/2 - phi_hat (:func:`outperform.stats._effect_size.cohens_g`),
so that a positive g favours A like every other effect size. ``alternative="greater"`` means
"A is better" (n01 < n10 expected).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import special

try:  # the Boost ufuncs scipy.stats.binom.cdf/pmf call, without importing scipy.stats (1 s)
    from scipy.special._ufuncs import _binom_cdf, _binom_pmf
except ImportError:  # pragma: no cover - a scipy without them: the public (slower) route
    _binom_cdf = _binom_pmf = None

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError, as_counts,
                           as_float_array, check_alternative, check_choice)
from ..results import FrequentistResult
from ..results import BinomialInterval
from ._effect_size import cohens_g, effect_size_label

__all__ = ["DiscordanceCounts", "cochrans_q", "discordance_counts", "mcnemar", "mcnemar_table"]


class DiscordanceCounts(NamedTuple):
    """Counts of the four joint outcomes of two classifiers (see the module's sign convention)."""

    n00: int
    n01: int
    n10: int
    n11: int

    @property
    def table(self) -> np.ndarray:
        """The 2 x 2 table ``[[n00, n01], [n10, n11]]`` (rows: A wrong/right)."""
        return np.array([[self.n00, self.n01], [self.n10, self.n11]], dtype=np.int64)

    @property
    def n(self) -> int:
        """Number of test examples."""
        return self.n00 + self.n01 + self.n10 + self.n11


def _as_correctness(x, name: str) -> np.ndarray:
    arr = as_float_array(x, name, ndim=1)
    if not np.all((arr == 0) | (arr == 1)):
        raise InvalidInputError(
            f"{name} must hold 0/1 (or bool) correctness, got values like "
            f"{arr[(arr != 0) & (arr != 1)][0]:g}. To compare predicted labels, pass y_true=."
        )
    return arr.astype(bool)


def _as_labels(x, name: str, n: int | None = None) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise InvalidInputError(f"{name} must be 1-dimensional, got shape {arr.shape}.")
    if n is not None and arr.size != n:
        raise InvalidInputError(
            f"{name} must have one prediction per example of y_true ({n}), got {arr.size}.")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise InvalidInputError(f"{name} contains NaN or infinite labels; remove those examples.")
    if arr.dtype.kind == "O" and any(v is None or v != v for v in arr):
        raise InvalidInputError(
            f"{name} contains missing labels (None/NaN); remove those examples.")
    return arr


def discordance_counts(a, b, *, y_true=None) -> DiscordanceCounts:
    """Joint correctness counts (n00, n01, n10, n11) of models A and B on one test set.

    Parameters
    ----------
    a, b : array_like, shape (n_examples,)
        Without ``y_true``: 0/1 (or bool) correctness of A and B on each example (1 = right).
        With ``y_true``: the predicted labels of A and B.
    y_true : array_like, shape (n_examples,), optional
        True labels; an example counts as right when the prediction equals it.

    Returns
    -------
    DiscordanceCounts
        ``n01`` = A wrong and B right, ``n10`` = A right and B wrong (module docstring);
        ``.table`` gives ``[[n00, n01], [n10, n11]]``.

    Raises
    ------
    InvalidInputError
        Lengths differ, values other than 0/1 without ``y_true``, missing labels, or float
        predictions that look like probabilities (threshold them into labels first).

    Examples
    --------
    >>> discordance_counts([1, 0, 0, 1, 1], [1, 1, 0, 0, 1])
    DiscordanceCounts(n00=1, n01=1, n10=1, n11=2)
    >>> y = ["cat", "dog", "cat"]
    >>> discordance_counts(["cat", "dog", "dog"], ["cat", "cat", "dog"], y_true=y)
    DiscordanceCounts(n00=1, n01=0, n10=1, n11=1)
    """
    if y_true is None:
        ca, cb = _as_correctness(a, "a"), _as_correctness(b, "b")
        if ca.size != cb.size:
            raise InvalidInputError(
                f"a and b must be paired (one value per test example, same order), got lengths "
                f"{ca.size} and {cb.size}.")
    else:
        y = _as_labels(y_true, "y_true")
        pa, pb = _as_labels(a, "a", y.size), _as_labels(b, "b", y.size)
        for name, p in (("a", pa), ("b", pb)):
            if p.dtype.kind == "f" and np.any(p != np.round(p)):
                raise InvalidInputError(
                    f"{name} holds non-integer numbers; these look like probabilities or scores, "
                    "not labels. Threshold them into predicted labels before McNemar's test.")
        ca, cb = pa == y, pb == y
    n11 = int(np.count_nonzero(ca & cb))
    n10 = int(np.count_nonzero(ca & ~cb))
    n01 = int(np.count_nonzero(~ca & cb))
    return DiscordanceCounts(ca.size - n11 - n10 - n01, n01, n10, n11)


def _count(x, name: str) -> int:
    arr = as_counts(x, name)
    if arr.ndim != 0:
        raise InvalidInputError(f"{name} must be a single count, got shape {arr.shape}.")
    return int(arr)


def _binom_half(which: str, x, n):
    """scipy.stats.binom.cdf / .pmf at p = 1/2 for integer 0 <= x <= n, the same numbers
    (rv_discrete's cdf is 1 from the top of the support on, else the Boost ufunc); chdtrc
    and ndtr below are likewise scipy.stats.chi2.sf and norm.sf/cdf."""
    if _binom_cdf is None:  # pragma: no cover
        from scipy import stats

        return getattr(stats.binom, which)(x, n, 0.5)
    x, n = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(n, dtype=float))
    if which == "pmf":
        return _binom_pmf(x, n, 0.5)
    return np.where(x >= n, 1.0, _binom_cdf(x, n, 0.5))[()]


def exact_pvalues(n01, n10, alternative: str = "two-sided", *, mid: bool = False):
    """Exact conditional McNemar p-values, vectorised over arrays of counts.

    Given n = n01 + n10 discordant examples, n01 ~ Binomial(n, 1/2) under H0. "greater"
    (A better) is the lower tail of n01; the two-sided p-value doubles the smaller tail (the
    null distribution is symmetric, so this equals R's binom.test). n = 0 gives p = 1.
    ``mid=True``: the mid-p value, each tail counting half the probability of the observed
    count, P(X < x) + P(X = x)/2 (Fagerland, Lydersen & Laake 2013, eq. 4); two-sided at
    n01 = n10, where the observed count is the only one as extreme as itself, 1 - f/2 with
    f = P(X = n01) (their R package contingencytables, ``McNemar_midP_test_paired_2x2``),
    not the doubled tail, which reaches 1.
    """
    n01 = np.asarray(n01)
    n10 = np.asarray(n10)
    n = n01 + n10

    def tail(x):
        lower = _binom_half("cdf", x, n)
        return lower - 0.5 * _binom_half("pmf", x, n) if mid else lower
    if alternative == "greater":
        return tail(n01)
    if alternative == "less":
        return tail(n10)
    doubled = np.minimum(1.0, 2.0 * tail(np.minimum(n01, n10)))
    if not mid:
        return doubled
    # n = 0 (no discordant pair) stays 1, as the exact test.
    tie = (n01 == n10) & (n > 0)
    return np.where(tie, 1.0 - 0.5 * _binom_half("pmf", n01, n), doubled)[()]


def mcnemar(n01, n10, *, method: str = "exact", correction: bool = True,
            alternative: str = "two-sided") -> FrequentistResult:
    """McNemar's test of equal error rates of two classifiers on the same test set.

    Only the discordant counts matter: under H0 (equal error rates, theta01 = theta10) the
    ``n01`` examples that A gets wrong and B gets right are Binomial(n01 + n10, 1/2).

    Parameters
    ----------
    n01 : int
        Number of examples A gets wrong and B gets right.
    n10 : int
        Number of examples A gets right and B gets wrong.
    method : {"exact", "midp", "chi2"}
        ``"exact"``: binomial test of n01 (statistic = n01). ``"midp"``: the mid-p McNemar
        test, the exact p-value minus the probability of the observed count (two-sided:
        2 [P(X <= min) − P(X = min)/2], X ~ Binomial(n01 + n10, 1/2); 1 − P(X = n01)/2
        at n01 = n10); Fagerland, Lydersen &
        Laake (2013), "The McNemar test for binary matched-pairs data: mid-p and asymptotic
        are better than exact conditional", BMC Med. Res. Methodol. 13: 91, recommend it for
        small test sets: it keeps the level closely and is less conservative than the exact
        test. ``"chi2"``: the statistic
        (|n01 - n10| - c)^2 / (n01 + n10) with c = 1 if ``correction`` else 0 (Williams 2026
        eq. 5), referred to chi-square with 1 df; this is R's ``mcnemar.test``, including its
        formula for n01 = n10 (statistic 1/(n01 + n10) with the correction, not 0).
    correction : bool
        Continuity correction of the ``"chi2"`` method (ignored by ``"exact"``).
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: A has the lower error rate (A better), i.e. n01 tends to be below n10.
        One-sided ``"chi2"`` uses the signed root z = (n10 - n01 -+ c) / sqrt(n01 + n10)
        (in ``details["z"]``) with the correction towards the null.

    Returns
    -------
    FrequentistResult
        ``estimate`` = phi_hat = n01 / (n01 + n10) (< 0.5 favours A; named in
        ``details["estimate_name"]``) with a Clopper-Pearson
        ``confidence_interval`` (one-sided for one-sided alternatives); ``effect_size`` =
        Cohen's g = 1/2 - phi_hat (minus Williams' g, so positive when A is better) and its
        label in ``details["effect_size_label"]``.

    Raises
    ------
    InvalidInputError
        Negative, non-integer or non-scalar counts; unknown method or alternative.
    DegenerateDataError
        n01 = n10 = 0: the models never disagree and the test has no information. (R returns
        statistic Inf and p ~ 0 with the correction, NaN without it; the exact conditional test
        would give p = 1. We raise instead; the all-pairs leaderboard functions report p = 1.)

    References
    ----------
    McNemar (1947); Dietterich (1998); Williams (2026) §5.1 eq. 5 and §6.2; Fagerland,
    Lydersen & Laake (2013) for the mid-p test.

    Examples
    --------
    Williams (2026) §6.2, da-en (A = GNN, B = LLM; R's ``mcnemar.test`` gives p = 0.0443):

    >>> res = mcnemar(159, 198, method="chi2")
    >>> round(res.statistic, 4), round(res.pvalue, 4), round(res.effect_size, 3)
    (4.0448, 0.0443, 0.055)
    >>> round(mcnemar(159, 198).pvalue, 4)     # exact binomial
    0.0443
    """
    check_choice(method, "method", ("exact", "midp", "chi2"))
    check_alternative(alternative)
    n01, n10 = _count(n01, "n01"), _count(n10, "n10")
    n = n01 + n10
    if n == 0:
        raise DegenerateDataError(
            "n01 = n10 = 0: models A and B are right and wrong on exactly the same examples, so "
            "McNemar's test has no information (equal accuracy on this test set). Use "
            "bayesian_mcnemar for a posterior that stays defined, or check that A and B differ.")
    g = cohens_g(n01, n10)
    details = {"n01": n01, "n10": n10, "n_discordant": n,
               "effect_size_label": effect_size_label(g, "g"),
               "estimate_name": "φ = n01 / (n01 + n10)"}
    if method == "exact":
        statistic = float(n01)
        pvalue = float(exact_pvalues(n01, n10, alternative))
        name = "McNemar's test (exact binomial)"
        df = None
    elif method == "midp":
        statistic = float(n01)
        pvalue = float(exact_pvalues(n01, n10, alternative, mid=True))
        name = "McNemar's mid-p test"
        df = None
    else:
        c = 1.0 if correction else 0.0
        statistic = (abs(n01 - n10) - c) ** 2 / n
        if alternative == "two-sided":
            pvalue = float(special.chdtrc(1, statistic))
        else:
            # Correction towards the null: the lattice of n10 - n01 has step 2.
            towards = -c if alternative == "greater" else c
            z = (n10 - n01 + towards) / np.sqrt(n)
            details["z"] = float(z)
            pvalue = float(special.ndtr(-z) if alternative == "greater" else special.ndtr(z))
        name = "McNemar's chi-squared test" + (" with continuity correction" if correction else "")
        df = 1.0
    # binomtest's alternative is about phi; "A better" means phi < 1/2.
    phi_alt = {"two-sided": "two-sided", "greater": "less", "less": "greater"}[alternative]

    return FrequentistResult(statistic=float(statistic), pvalue=pvalue, method=name,
                             alternative=alternative, df=df, estimate=n01 / n, effect_size=g,
                             effect_size_name="Cohen's g", details=details,
                             _interval=BinomialInterval(int(n01), int(n), phi_alt))


def mcnemar_table(table, *, method: str = "exact", correction: bool = True,
                  alternative: str = "two-sided") -> FrequentistResult:
    """McNemar's test from a 2 x 2 table ``[[n00, n01], [n10, n11]]`` (rows: A wrong/right).

    Same as :func:`mcnemar` on the off-diagonal cells; ``details`` also holds the table and the
    accuracies of A and B.

    Raises
    ------
    InvalidInputError
        Not a 2 x 2 table of non-negative whole counts.
    DegenerateDataError
        Off-diagonal cells both zero.

    Examples
    --------
    The issue's reference table (R: ``mcnemar.test(matrix(c(101, 59, 121, 33), 2))``):

    >>> res = mcnemar_table([[101, 121], [59, 33]], method="chi2")
    >>> round(res.statistic, 6), f"{res.pvalue:.7e}"
    (20.672222, '5.4500948e-06')
    """
    t = as_counts(table, "table")
    if t.shape != (2, 2):
        raise InvalidInputError(
            f"table must be 2 x 2 [[n00, n01], [n10, n11]], got shape {t.shape}.")
    res = mcnemar(t[0, 1], t[1, 0], method=method, correction=correction, alternative=alternative)
    n = int(t.sum())
    details = dict(res.details, table=t.tolist(), n=n,
                   accuracy_a=float(t[1].sum() / n), accuracy_b=float(t[:, 1].sum() / n))
    return FrequentistResult(statistic=res.statistic, pvalue=res.pvalue, method=res.method,
                             alternative=res.alternative, df=res.df, estimate=res.estimate,
                             effect_size=res.effect_size, effect_size_name=res.effect_size_name,
                             details=details, _interval=res._interval)


def cochrans_q(correct, *, names=None) -> FrequentistResult:
    """Cochran's Q test that k classifiers have the same accuracy on one test set.

    Parameters
    ----------
    correct : array_like, shape (n_models, n_examples)
        0/1 (or bool) correctness, one row per model (the leaderboard layout).
    names : sequence of str, optional
        Model names, reported in ``details``.

    Returns
    -------
    FrequentistResult
        Q = (k - 1) (k sum_j C_j^2 - T^2) / (k T - sum_i R_i^2) with C_j the number of examples
        model j gets right, R_i the number of models right on example i and T the total;
        chi-square with k - 1 df. ``details["accuracy"]`` holds each model's accuracy.
        For k = 2 it equals the uncorrected McNemar chi-square.

    Raises
    ------
    InvalidInputError
        Not a 2-D 0/1 matrix.
    TooFewError
        Fewer than 2 models or 1 example.
    DegenerateDataError
        Every example is right for all models or wrong for all (no disagreement).

    References
    ----------
    Cochran (1950); Dietterich (1998) §3.

    Examples
    --------
    >>> res = cochrans_q([[1, 1, 0, 1, 0, 1], [0, 1, 0, 0, 0, 1], [0, 0, 1, 0, 0, 1]])
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.df
    (2.0, 0.3679, 2.0)
    """
    x = as_float_array(correct, "correct", ndim=2)
    if not np.all((x == 0) | (x == 1)):
        raise InvalidInputError("correct must hold 0/1 (or bool) correctness of each model "
                                "(rows) on each example (columns).")
    k, n = x.shape
    if k < 2:
        raise TooFewError(f"correct has {k} model(s) (rows); Cochran's Q needs at least 2.")
    if n < 1:
        raise TooFewError("correct has no examples (columns).")
    col = x.sum(axis=1)            # per model
    row = x.sum(axis=0)            # per example
    total = col.sum()
    denom = k * total - np.sum(row ** 2)
    if denom == 0:
        raise DegenerateDataError(
            "All models are right on the same examples and wrong on the others: Cochran's Q "
            "has no information (its denominator is 0); the accuracies are equal.")
    q = (k - 1) * (k * np.sum(col ** 2) - total ** 2) / denom
    details = {"n_models": k, "n_examples": n, "accuracy": (col / n).tolist()}
    if names is not None:
        details["names"] = [str(v) for v in names]
    return FrequentistResult(statistic=float(q), pvalue=float(special.chdtrc(k - 1, q)),
                             method="Cochran's Q test", df=float(k - 1), details=details)
