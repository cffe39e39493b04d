"""Power of the tests on counts: the exact sign test (a binomial test of wins) and McNemar's
test on a shared test set (Connor 1987, Miettinen 1968, and exact by enumerating the binomial
number of discordant examples)."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from scipy import stats
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_effectsize

from .._validation import InvalidInputError, check_choice
from ._result import PowerAnalysis
from ._solve import check_inputs, smallest_n, solve_continuous, solve_plan

__all__ = ["binomial_test_power", "sign_test_power", "mcnemar_power"]

#: Largest number of trials whose binomial test is computed exactly: scipy's binomial
#: quantiles fail past ~10^16 trials (double precision holds whole numbers to 2^53 ~ 9e15).
#: Beyond it the normal approximation with continuity correction is used (its error is of
#: order 1 / sqrt(trials) < 1e-7), and the result says so.
EXACT_TRIALS = 10**15
#: Largest number of discordant counts McNemar's exact power sums over (memory ~ 8 bytes x
#: counts x sizes at once; 10^5 counts: n psi (1 - psi) up to ~4.6e7, ~1 s). Beyond it the power
#: is Connor's (1987) normal approximation, stated in the result.
EXACT_COUNTS = 10**5

def _z(alpha, alternative):
    return stats.norm.isf(alpha / 2 if alternative == "two-sided" else alpha)


def binomial_test_power(m, q, alpha: float, alternative: str = "two-sided") -> np.ndarray:
    """Exact power of the binomial test of 1/2 with m trials and success probability q.

    A success is a trial won by A (a data set for the sign test, a discordant example that
    A gets right for McNemar). The test rejects exactly where
    :func:`outperform.stats.mcnemar`'s exact p-value is <= alpha: "greater" when the losses
    of A fall at or below c, the largest count with P(Bin(m, 1/2) <= c) <= alpha; two-sided
    when either count falls at or below c at alpha / 2.

    Parameters
    ----------
    m : int or array of int
        Numbers of trials (0 gives power 0).
    q : float or array
        P(A wins a trial); broadcast against ``m``.
    alpha : float
    alternative : {"two-sided", "greater"}

    Returns
    -------
    ndarray
        Power, broadcast shape of ``m`` and ``q``.

    Raises
    ------
    InvalidInputError
        m not whole numbers >= 0, q outside [0, 1] (or NaN), alpha outside (0, 1), an unknown
        alternative.
    """
    m, q = np.asarray(m, dtype=float), np.asarray(q, dtype=float)
    check_choice(alternative, "alternative", ("two-sided", "greater"))
    if np.any(~np.isfinite(m)) or np.any(m < 0) or np.any(m != np.round(m)):
        raise InvalidInputError(f"m (numbers of trials) must be whole numbers >= 0, got "
                                f"{float(m[~(np.isfinite(m) & (m >= 0) & (m == np.round(m)))][0]):g}.")
    if np.any(~((q >= 0) & (q <= 1))):
        raise InvalidInputError(f"q (P(A wins a trial)) must lie in [0, 1], got "
                                f"{float(q[~((q >= 0) & (q <= 1))][0]):g}.")
    if isinstance(alpha, bool) or not 0 < float(alpha) < 1:
        raise InvalidInputError(f"alpha must lie strictly between 0 and 1, got {alpha!r}.")
    level = alpha / 2 if alternative == "two-sided" else alpha
    m, q = np.broadcast_arrays(m, q)
    big = m > EXACT_TRIALS
    if big.any():
        out = np.empty(m.shape)
        out[big] = _normal_binomial_test_power(m[big], q[big], level, alternative)
        if (~big).any():
            out[~big] = binomial_test_power(m[~big], q[~big], alpha, alternative)
        return out
    c = stats.binom.ppf(level, m, 0.5)
    c = c - (stats.binom.cdf(c, m, 0.5) > level)      # largest c with P(X <= c) <= level
    upper = stats.binom.sf(m - c - 1, m, q)            # A's wins >= m - c
    if alternative == "greater":
        return upper
    return upper + stats.binom.cdf(c, m, q)            # A's wins <= c


def _normal_binomial_test_power(m, q, level, alternative):
    """:func:`binomial_test_power` past :data:`EXACT_TRIALS` trials: the critical count and
    the tails from the normal approximation of the binomial, with continuity correction."""
    c = np.floor(m / 2 - 0.5 + stats.norm.ppf(level) * np.sqrt(m) / 2)
    sd = np.sqrt(m * q * (1 - q))
    with np.errstate(divide="ignore", invalid="ignore"):
        upper = stats.norm.sf((m - c - 0.5 - m * q) / sd)
        lower = stats.norm.cdf((c + 0.5 - m * q) / sd)
    # q = 0 or 1: every trial lost or won
    upper = np.where(sd > 0, upper, (m * q >= m - c).astype(float))
    lower = np.where(sd > 0, lower, (m * q <= c).astype(float))
    return upper if alternative == "greater" else upper + lower


def _arcsine_sign_power(p_win, n, alpha, alternative):
    """Normal approximation on Cohen's h = 2 asin sqrt(p) - 2 asin sqrt(1/2) (R's pwr.p.test)."""
    h = proportion_effectsize(p_win, 0.5)
    return float(NormalIndPower().power(effect_size=abs(h), nobs1=n, alpha=alpha, ratio=0,
                                        alternative={"two-sided": "two-sided",
                                                     "greater": "larger"}[alternative]))


def sign_test_power(*, p_win=None, n=None, power=None, alpha=0.05, alternative="two-sided",
                    method="exact") -> PowerAnalysis:
    """Exact power, number of data sets or minimum detectable win rate of the sign test.

    Give all of ``p_win``, ``n``, ``power`` and ``alpha`` but one of the first three (the
    exact test's power is a step function of alpha, so alpha is not solved for). Ties are
    assumed absent (split ties halve their weight; plan with the win rate among non-ties).

    Parameters
    ----------
    p_win : float, optional
        Probability that A beats B on a data set (0.5: no difference; > 0.5: A better).
    n : int, optional
        Number of data sets. Solved for as the smallest n reaching ``power`` (exact power is
        saw-toothed in n: a few larger n may fall just short).
    power, alpha : float
    alternative : {"two-sided", "greater"}
    method : {"exact", "arcsine"}
        ``"arcsine"``: Cohen's (1988, ch. 6) normal approximation on h = 2 asin sqrt(p_win) -
        pi / 2, as R's ``pwr.p.test`` (statsmodels' ``NormalIndPower`` with ratio 0); labelled
        as an approximation; solves alpha too.

    Returns
    -------
    PowerAnalysis

    Raises
    ------
    InvalidInputError
        Not exactly one missing, alpha missing (exact), power <= alpha, p_win = 0.5 or
        outside (0, 1).

    References
    ----------
    Demšar (2006) §3.1.3; the binomial distribution of the wins; Cohen (1988) ch. 6.
    """
    check_choice(method, "method", ("exact", "arcsine"))
    if method == "arcsine":
        if p_win is not None and not 0 < p_win < 1:
            raise InvalidInputError(f"p_win must lie strictly between 0 and 1, got {p_win!r}.")
        res = solve_plan(
                    lambda n_, p, a: _arcsine_sign_power(min(0.5 + p, 1.0), n_, a, alternative),
                    test="sign test", method="arcsine normal approximation (Cohen's h)",
                    power=power, n=n, effect=None if p_win is None else p_win - 0.5,
                    alpha=alpha, alternative=alternative, n_min=1, n_unit="data sets",
                    effect_name="p_win - 1/2",
                    approximation="normal approximation to the sign test; method='exact' "
                                  "gives its exact power.")
        return replace(res, effect=0.5 + res.effect, effect_name="p_win")
    if alpha is None:
        raise InvalidInputError("the sign test's exact power is a step function of alpha; "
                                "give alpha and solve for power, n or p_win.")
    missing = check_inputs(power=power, n=n, effect=p_win, alpha=alpha, alternative=alternative,
                           n_min=1, n_unit="data sets", effect_name="p_win", effect_null=0.5)
    if p_win is not None and not 0 < p_win < 1:
        raise InvalidInputError(f"p_win must lie strictly between 0 and 1, got {p_win!r}.")
    if n is not None and int(n) != n:
        raise InvalidInputError(f"n must be a whole number of data sets, got {n!r}.")
    if missing == "n":
        # Start near the arcsine approximation's n: the exact scan then covers few sizes.
        start = 0.8 * solve_plan(
            lambda n_, p, a: _arcsine_sign_power(0.5 + p, n_, a, alternative), test="", method="",
            power=power, n=None, effect=abs(p_win - 0.5), alpha=alpha, alternative=alternative,
            n_min=1, n_unit="data sets", effect_name="p_win - 1/2").n
        n = smallest_n(lambda ns: binomial_test_power(ns, p_win, alpha, alternative), power,
                       int(start), "number of data sets")
    elif missing == "effect":
        p_win = solve_continuous(
            lambda q: float(binomial_test_power(n, q, alpha, alternative)), power, 0.5,
            1 - 1e-12, "p_win", f"even a model that always wins does not reach power {power:g} "
            f"on {n:g} data sets: the exact sign test cannot reject with so few; add data sets.")
    pw = float(binomial_test_power(n, p_win, alpha, alternative))
    approximation = None if n <= EXACT_TRIALS else (
        f"n = {float(n):.3g} data sets: beyond {EXACT_TRIALS:.0e} the exact binomial is replaced "
        "by its normal approximation with continuity correction (error of order 1 / sqrt(n)).")
    return PowerAnalysis(test="sign test", method="exact binomial", power=pw, n=float(n),
                         effect=float(p_win), alpha=float(alpha), alternative=alternative,
                         solved_for=missing, n_unit="data sets", effect_name="p_win",
                         approximation=approximation)


def _check_accuracies(acc_a, acc_b, psi):
    for name, v in (("accuracy_a", acc_a), ("accuracy_b", acc_b)):
        if v is not None and not 0 <= v <= 1:
            raise InvalidInputError(f"{name} must lie in [0, 1], got {v!r}.")
    if not 0 < psi <= 1:
        raise InvalidInputError(
            f"discordance (the share of test examples on which exactly one model is right) "
            f"must lie in (0, 1], got {psi!r}.")
    if acc_a is None:
        return
    delta = acc_a - acc_b
    if psi < abs(delta) - 1e-12:
        raise InvalidInputError(
            f"discordance {psi:g} is below |accuracy_a - accuracy_b| = {abs(delta):g}: the "
            "models must disagree on at least the examples that make their accuracies differ; "
            f"raise the discordance to at least {abs(delta):g} or bring the accuracies closer.")
    top = min(acc_a + acc_b, 2 - acc_a - acc_b)
    if psi > top + 1e-12:
        raise InvalidInputError(
            f"discordance {psi:g} is impossible with accuracies {acc_a:g} and {acc_b:g} "
            f"(at most {top:g}: one model cannot be right on more examples than it gets right); "
            "lower the discordance.")


def exact_counts(n, psi) -> float:
    """Number of discordant counts McNemar's exact power at n examples sums over: the
    Binomial(n, psi) range between its 1e-13 tails, ~14.7 sqrt(n psi (1 - psi))."""
    return 14.7 * math.sqrt(float(n) * psi * (1 - psi)) + 1


def _approximated(n, psi) -> str | None:
    """The note of a McNemar plan whose exact power is replaced by Connor's (None: exact)."""
    if exact_counts(n, psi) <= EXACT_COUNTS:
        return None
    return (f"n = {float(n):.3g} test examples: past {EXACT_COUNTS:,} discordant counts "
            "(n psi (1 - psi) above ~4.6e7) the exact test's power is not enumerated but "
            "taken from Connor's (1987) normal approximation, both tails (error of order "
            "1 / sqrt(n)).")


def _mcnemar_power_fn(method, psi, alternative):
    """power(n, delta, alpha) of McNemar's test for discordance psi (vectorised over n)."""
    def connor(n, delta, alpha):
        return stats.norm.cdf((abs(delta) * np.sqrt(n) - _z(alpha, alternative) * math.sqrt(psi))
                              / math.sqrt(psi - delta ** 2))

    def miettinen(n, delta, alpha):
        var = psi ** 2 - delta ** 2 * (3 + psi) / 4
        if var <= 0:
            raise InvalidInputError(
                f"Miettinen's formula needs psi^2 > delta^2 (3 + psi) / 4 (here psi = {psi:g}, "
                f"delta = {delta:g}: nearly every disagreement favours one model); use "
                "method='connor' or 'exact'.")
        return stats.norm.cdf((abs(delta) * np.sqrt(n * psi) - _z(alpha, alternative) * psi)
                              / math.sqrt(var))

    def _connor_two_tails(n, delta, alpha):
        z, sd = _z(alpha, alternative), math.sqrt(psi - delta ** 2)
        out = stats.norm.cdf((abs(delta) * np.sqrt(n) - z * math.sqrt(psi)) / sd)
        if alternative == "two-sided":
            out = out + stats.norm.cdf((-abs(delta) * np.sqrt(n) - z * math.sqrt(psi)) / sd)
        return out

    def exact(n, delta, alpha):
        n = np.atleast_1d(np.asarray(n, dtype=float))
        if exact_counts(n.max(), psi) > EXACT_COUNTS:
            out = _connor_two_tails(n, delta, alpha)
            return out if out.size > 1 else float(out[0])
        n = n.astype(np.int64)
        # Discordant counts beyond the 1e-13 tails of Bin(n, psi) are left out (< 2e-13 of
        # power), which keeps the cost per n at O(sqrt(n)).
        d = np.arange(stats.binom.ppf(1e-13, n.min(), psi),
                      stats.binom.isf(1e-13, n.max(), psi) + 1)
        q = (psi + delta) / (2 * psi)                  # P(a discordant example favours A)
        given_d = binomial_test_power(d, q, alpha, alternative)
        out = stats.binom.pmf(d[None, :], n[:, None], psi) @ given_d
        return out if out.size > 1 else float(out[0])

    return {"connor": connor, "miettinen": miettinen, "exact": exact}[method]


def mcnemar_power(*, accuracy_a=None, accuracy_b, discordance, n=None, power=None, alpha=0.05,
                  alternative="two-sided", method="connor") -> PowerAnalysis:
    """Test-set size, power, minimum detectable accuracy difference or alpha for McNemar's test.

    Two classifiers are scored on the same n test examples; ``discordance`` psi is the share
    of examples on which exactly one is right (p01 + p10), and the accuracy difference is
    delta = accuracy_a - accuracy_b = p10 - p01. Give all of accuracy_a, n, power and alpha
    but one.

    Parameters
    ----------
    accuracy_a : float, optional
        Expected accuracy of A; None solves for the smallest accuracy of A that the test
        detects (minimum detectable difference above ``accuracy_b``).
    accuracy_b : float
        Expected accuracy of B (e.g. the control).
    discordance : float
        psi in (0, 1], at least |delta|: from a pilot run, the share of examples the two
        models disagree on (right/wrong). Disagreement costs power: at a fixed delta a larger
        psi needs more examples.
    n : int, optional
        Test-set size (examples).
    power, alpha : float
    alternative : {"two-sided", "greater"}
        ``"greater"``: one-sided, A better.
    method : {"connor", "miettinen", "exact"}
        ``"connor"``: Connor (1987) n = (z_a sqrt(psi) + z_b sqrt(psi - delta^2))^2 / delta^2;
        ``"miettinen"``: Miettinen (1968), variance psi - delta^2 (3 + psi) / (4 psi) under
        H1; both count only the tail in the direction of delta. ``"exact"``: the exact
        conditional test of :func:`outperform.stats.mcnemar`, power summed over the
        Binomial(n, psi) number of discordant examples (n solved as the smallest n reaching
        ``power``; alpha not solvable).

    Returns
    -------
    PowerAnalysis
        ``effect`` = delta; ``details`` with ``discordance``, ``accuracy_a``, ``accuracy_b``,
        ``p01``, ``p10``, and for the normal methods ``exact_power`` at the resulting n.

    Raises
    ------
    InvalidInputError
        Not exactly one missing; power <= alpha; equal accuracies; discordance below |delta|
        or above what the accuracies allow; accuracies outside [0, 1]; alpha missing with
        method='exact'.

    References
    ----------
    Connor (1987) Biometrics 43:207-211; Miettinen (1968) Biometrics 24:339-352; Lachin (1992)
    Stat Med 11:1239-1251; Dietterich (1998).

    Examples
    --------
    >>> mcnemar_power(accuracy_a=0.82, accuracy_b=0.80, discordance=0.15, power=0.8).n
    2941.0
    """
    check_choice(method, "method", ("connor", "miettinen", "exact"))
    psi = float(discordance)
    _check_accuracies(accuracy_a, accuracy_b, psi)
    if method == "exact" and alpha is None:
        raise InvalidInputError("the exact test's power is a step function of alpha; give "
                                "alpha, or solve for alpha with method='connor'.")
    if method == "exact" and n is not None and int(n) != n:
        raise InvalidInputError(f"n must be a whole number of test examples, got {n!r}.")
    delta = None if accuracy_a is None else accuracy_a - accuracy_b
    missing = check_inputs(power=power, n=n, effect=delta, alpha=alpha, alternative=alternative,
                           n_min=1, n_unit="test examples", effect_name="accuracy difference")
    fn = _mcnemar_power_fn(method, psi, alternative)
    details = {}
    if missing == "n":
        z_b = stats.norm.ppf(power)
        if method == "miettinen":
            fn(1, delta, alpha)                        # refuses an impossible variance
            root = (_z(alpha, alternative) * psi
                    + z_b * math.sqrt(psi ** 2 - delta ** 2 * (3 + psi) / 4))
            exact_n = root ** 2 / (psi * delta ** 2)
        else:
            exact_n = ((_z(alpha, alternative) * math.sqrt(psi)
                        + z_b * math.sqrt(psi - delta ** 2)) ** 2 / delta ** 2)
        if method == "exact":
            n = smallest_n(lambda ns: np.atleast_1d(fn(ns, delta, alpha)), power,
                           int(exact_n), "test-set size")
        else:
            details["n_unrounded"] = exact_n
            n = math.ceil(exact_n - 1e-9)
    elif missing == "effect":
        hi = min(psi, 2 - 2 * accuracy_b - psi, 1 - accuracy_b)
        if hi <= 0:
            raise InvalidInputError(
                f"no accuracy of A above {accuracy_b:g} is compatible with discordance {psi:g}; "
                "lower the discordance.")
        delta = solve_continuous(
            lambda e: float(fn(n, e, alpha)), power, 1e-9, hi, "accuracy difference",
            f"no accuracy of A up to {accuracy_b + hi:g} gives power {power:g} on {n:g} test "
            "examples with this discordance; use a larger test set or accept less power.")
        accuracy_a = accuracy_b + delta
    elif missing == "alpha":
        alpha = solve_continuous(lambda a: float(fn(n, delta, a)), power, 1e-12, 1 - 1e-12,
                                 "alpha", f"power {power:g} is out of reach for any alpha.")
    pw = float(fn(n, delta, alpha))
    approximation = _approximated(n, psi)
    if method != "exact" and approximation is None:
        details["exact_power"] = float(_mcnemar_power_fn("exact", psi, alternative)(
            int(math.ceil(n)), delta, alpha))
    elif method != "exact":
        approximation = (f"n = {float(n):.3g} test examples: exact_power is not computed past "
                         f"{EXACT_COUNTS:,} discordant counts (the exact enumeration's limit).")
    details.update(discordance=psi, accuracy_a=float(accuracy_a), accuracy_b=float(accuracy_b),
                   p10=(psi + delta) / 2, p01=(psi - delta) / 2)
    names = {"connor": "Connor (1987)", "miettinen": "Miettinen (1968)",
             "exact": "exact conditional binomial"}
    return PowerAnalysis(test="McNemar's test", method=names[method], power=pw, n=float(n),
                         effect=float(delta), alpha=float(alpha), alternative=alternative,
                         solved_for=missing, n_unit="test examples",
                         effect_name="accuracy difference", details=details,
                         approximation=approximation)
