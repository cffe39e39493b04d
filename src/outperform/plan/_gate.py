"""Power of a regression gate at the current number of items, the items a gate needs, and
the operating characteristics of the point-threshold gates in use.

A gate compares a candidate build with a baseline on the same n items (paired, one-sided at
α; :func:`outperform.gate`). Its power is planned as the test it runs:

* 0/1 scores: McNemar's test (Connor 1987, :func:`mcnemar_power`) for the difference test;
  the rate of discordant items ψ (exactly one run right) is estimated from the data (or
  given); a regression of the accuracy by Δ is an increase of the error rate by Δ, which is
  what Connor's formula is asked for;
* graded scores (and 0/1 scores in clusters, or averaged over repeats): the paired t-test
  (:func:`paired_ttest_power`) with the standard deviation s of the per-item differences,
  on n / design effect items with clusters;
* non-inferiority within a margin δ (pass when the one-sided bound is above −δ): the paired
  t-test of d + δ, whose power at a true d = 0 is that of a shift δ / s (s = √ψ for 0/1
  scores, the standard deviation of a difference in {−1, 0, 1} of mean 0): the normal
  approximation of Tango's score test, labelled as such.

With r repeats averaged per item, the variance of an item's difference is
s² − v + v / r, v the within-item variance of one sample's difference (both runs').
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import InvalidInputError, check_probability
from ._binomial import mcnemar_power
from ._ttest import paired_ttest_power

__all__ = ["gate_power", "gate_sample_size", "threshold_gate_fail_probability"]

APPROXIMATION = ("non-inferiority power from the paired t-test of d + margin (for 0/1 "
                 "scores the normal approximation of Tango's score test)")


def _try(fn, notes: list, what: str):
    try:
        return fn()
    except InvalidInputError as exc:
        notes.append(f"{what}: not computed ({exc})")
        return None


def gate_power(*, binary: bool, n: float, alpha: float, power: float = 0.8,
               margin: float | None = None, difference: float = 0.0,
               discordance: float | None = None, sd: float | None = None,
               baseline_rate: float | None = None, design_effect: float = 1.0) -> dict:
    """Minimum detectable regression, power against the margin and items needed of one gate.

    Parameters
    ----------
    binary : bool
        0/1 scores on independent items (McNemar's test); else the paired t-test.
    n : float
        Items compared.
    alpha, power : float
        One-sided level of the gate; the power asked for (0.8).
    margin : float, optional
        δ > 0 in metric units: the loss the gate tolerates.
    difference : float
        The observed difference d̂ (candidate − baseline, positive = candidate better), for
        the items needed to decide an inconclusive gate.
    discordance : float, optional
        ψ, share of items on which exactly one run is right (0/1 scores).
    sd : float, optional
        Standard deviation of the per-item differences (graded scores; used for 0/1 scores
        in clusters).
    baseline_rate : float, optional
        The baseline's accuracy (0/1 scores), which bounds the regressions possible.
    design_effect : float
        Variance inflation of clustered items (1: independent).

    Returns
    -------
    dict
        ``mde_difference_test`` (smallest true loss the difference test, margin 0, flags
        with ``power``, metric units), ``mde`` (smallest true loss the gate calls a
        regression with ``power``: the same without a margin, δ + that with one, since the
        gate then tests d < −δ; normal approximation), ``power_at_margin`` (the difference
        test's power against a true loss of δ: how surely a loss of the margin is seen),
        ``power_noninferiority`` (probability of passing at a true d = 0 with margin δ),
        ``items_needed`` (items at which, at the observed d̂, the non-inferiority or the
        regression against −δ would be shown with ``power``), ``n_effective``, ``method``,
        ``notes`` (what could not be computed, and why). None where not computed.

    Examples
    --------
    1,319 items, 10% discordant, 88% baseline accuracy: McNemar's test flags a loss of 2.2
    points with power 0.8 (Connor 1987); a gate with a margin of 5 points calls a regression
    with power 0.8 from a loss of 7.2 points:

    >>> r = gate_power(binary=True, n=1319, alpha=0.05, margin=0.05, discordance=0.10,
    ...                baseline_rate=0.88)
    >>> round(r["mde_difference_test"], 4), round(r["mde"], 4), round(r["power_at_margin"], 4)
    (0.0216, 0.0716, 1.0)
    """
    check_probability(alpha, "alpha")
    check_probability(power, "power")
    notes: list[str] = []
    n_eff = n / max(design_effect, 1.0)
    use_mcnemar = binary and design_effect <= 1.0 and discordance is not None
    out = {"mde": None, "mde_difference_test": None, "power_at_margin": None, "power_noninferiority": None,
           "items_needed": None, "n_effective": float(n_eff), "notes": notes}
    if use_mcnemar:
        out["method"] = "McNemar's test, Connor (1987), discordance estimated from the items"
        if discordance <= 0:
            notes.append("the runs agree on every item (no discordant item): no discordance "
                         "to plan with; give one from a pilot (--discordance in --plan).")
            return out
        err = 1.0 - (0.5 if baseline_rate is None else float(baseline_rate))
        try:
            out["mde"] = float(mcnemar_power(accuracy_b=err, discordance=discordance, n=n,
                                             power=power, alpha=alpha,
                                             alternative="greater").effect)
        except InvalidInputError:
            notes.append(f"minimum detectable regression: none within reach; no regression "
                         f"the discordance {discordance:.3g} allows is flagged with power "
                         f"{power:g} on {n:g} items: more items are needed.")
        if margin is not None:
            res = _try(lambda: mcnemar_power(accuracy_a=min(err + margin, 1.0), accuracy_b=err,
                                             discordance=max(discordance, margin), n=n,
                                             alpha=alpha, alternative="greater"),
                       notes, "power against the margin")
            out["power_at_margin"] = None if res is None else float(res.power)
            if discordance < margin:
                notes.append(f"a regression of {margin:g} needs at least {margin:g} discordant "
                             f"items, more than the {discordance:.3g} observed: its power is "
                             "planned at that discordance.")
        sd0 = math.sqrt(discordance)
        sd_h = math.sqrt(max(discordance - difference ** 2, 1e-12))
    else:
        out["method"] = ("paired t-test (noncentral t)" + (f", n / design effect "
                         f"{design_effect:.3g}" if design_effect > 1 else ""))
        if sd is None or not sd > 0:
            notes.append("every item has the same difference (standard deviation 0): no "
                         "spread to plan with; give one from a pilot (--sd in --plan).")
            return out
        if n_eff < 2:
            notes.append(f"{n_eff:.3g} effective items: too few to plan with.")
            return out
        res = _try(lambda: paired_ttest_power(n=n_eff, power=power, alpha=alpha,
                                              alternative="greater"),
                   notes, "minimum detectable regression")
        out["mde"] = None if res is None else float(res.effect * sd)
        if margin is not None:
            out["power_at_margin"] = float(paired_ttest_power(
                effect=margin / sd, n=n_eff, alpha=alpha, alternative="greater").power)
        sd0 = sd_h = sd
    out["mde_difference_test"] = out["mde"]
    if margin is not None and out["mde"] is not None:
        out["mde"] = float(margin + out["mde"])
    if margin is not None:
        out["power_noninferiority"] = float(paired_ttest_power(
            effect=margin / sd0, n=max(n_eff, 2.0), alpha=alpha, alternative="greater").power)
        distance = abs(difference + margin)
        if distance > 0:
            res = _try(lambda: paired_ttest_power(effect=distance / sd_h, power=power,
                                                  alpha=alpha, alternative="greater"),
                       notes, "items needed")
            out["items_needed"] = (None if res is None
                                   else int(math.ceil(res.n * max(design_effect, 1.0))))
        out["approximation"] = APPROXIMATION
    return out


def gate_sample_size(*, margin: float, discordance: float | None = None,
                     sd: float | None = None, repeats: int = 1,
                     within_variance: float | None = None, alpha: float = 0.05,
                     power: float = 0.8) -> dict:
    """Items a gate needs: to flag a true regression of δ, and to pass a candidate that is
    no worse (true d = 0) by showing non-inferiority within δ, each with ``power``.

    Parameters
    ----------
    margin : float
        δ > 0, metric units.
    discordance : float, optional
        ψ for 0/1 scores (share of items exactly one build gets right, from a pilot).
    sd : float, optional
        Standard deviation of the per-item difference of one sample each (graded scores).
    repeats : int
        Samples per item averaged (epochs, seeds).
    within_variance : float, optional
        Needed with ``repeats`` > 1: the variance of one sample's difference within an item
        (the sum of the two builds' within-item variances the gate reports).
    alpha, power : float

    Returns
    -------
    dict
        ``regression``: :class:`PowerAnalysis` of the difference test (n = items to flag a
        regression of δ; 0/1 scores: the exact McNemar test, the smallest n reaching
        ``power``); ``noninferiority``: of the non-inferiority test at d = 0 (n =
        items to pass); ``sd`` (of an item's averaged difference), ``method``.

    Raises
    ------
    InvalidInputError
        Neither or both of ``discordance`` and ``sd``; margin not > 0; repeats < 1;
        repeats > 1 without ``within_variance`` or with one above s²; inputs the planners
        refuse.

    Examples
    --------
    >>> r = gate_sample_size(margin=0.02, discordance=0.10)
    >>> int(r["regression"].n), int(r["noninferiority"].n)
    (1629, 1547)
    """
    if (discordance is None) == (sd is None):
        raise InvalidInputError("give --discordance (0/1 scores: the share of items exactly "
                                "one build gets right) or --sd (graded scores: the standard "
                                "deviation of the per-item difference), one of them.")
    if not (isinstance(margin, (int, float)) and math.isfinite(margin) and margin > 0):
        raise InvalidInputError(f"--margin must be a positive loss in metric units, got "
                                f"{margin!r}.")
    if isinstance(repeats, bool) or int(repeats) != repeats or repeats < 1:
        raise InvalidInputError(f"--repeats must be a whole number >= 1, got {repeats!r}.")
    binary = discordance is not None
    if binary and not 0 < discordance <= 1:
        raise InvalidInputError(f"--discordance must lie in (0, 1], got {discordance!r}.")
    if not binary and not sd > 0:
        raise InvalidInputError(f"--sd must be positive, got {sd!r}.")
    s2 = discordance if binary else sd ** 2
    if repeats > 1:
        if within_variance is None:
            raise InvalidInputError("with --repeats above 1, give --within-variance: the "
                                    "variance of one sample's difference within an item (the "
                                    "gate reports each run's within-item variance; add them).")
        if not 0 <= within_variance <= s2:
            raise InvalidInputError(f"--within-variance {within_variance:g} must lie in "
                                    f"[0, {s2:g}] (it is part of the variance of one sample's "
                                    "difference).")
        s2 = s2 - within_variance + within_variance / repeats
    s = math.sqrt(s2)
    if binary and repeats == 1:
        # the exact conditional test the gate runs: Connor's normal n can fall a few points
        # of power short of it (0.77 instead of 0.8 at δ = 0.03, ψ = 0.1)
        regression = mcnemar_power(accuracy_a=0.5 + margin, accuracy_b=0.5,
                                   discordance=max(discordance, margin), power=power,
                                   alpha=alpha, alternative="greater", method="exact")
        method = "exact McNemar test"
    else:
        regression = paired_ttest_power(effect=margin / s, power=power, alpha=alpha,
                                        alternative="greater", n_unit="items")
        method = "paired t-test on the per-item means"
    noninferiority = paired_ttest_power(effect=margin / s, power=power, alpha=alpha,
                                        alternative="greater", n_unit="items")
    return {"regression": regression, "noninferiority": noninferiority, "sd": s,
            "method": method, "approximation": APPROXIMATION,
            "noninferiority_test": ("Tango's score test" if binary else
                                    "non-inferiority t-test"),
            "noninferiority_method": ("approximated by the paired t-test's power at margin / sd"
                                      if binary else noninferiority.method)}


def threshold_gate_fail_probability(*, n: int, true_accuracy: float, tolerance: float,
                                    expected: float | None = None,
                                    baseline_accuracy: float | None = None) -> float:
    """Exact probability that a point-threshold gate fails.

    Two forms of the gates in use (vLLM's GSM8K gate; MLflow's ``MetricThreshold``):

    * ``expected`` given: fail when the measured accuracy X / n < expected − tolerance,
      X ~ Binomial(n, true_accuracy);
    * ``baseline_accuracy`` given: both builds measured on n items, unpaired: fail when
      X_c / n − X_b / n < −tolerance, X_c ~ Bin(n, true_accuracy), X_b ~ Bin(n,
      baseline_accuracy) independent (the exact convolution of the two binomials).

    Returns
    -------
    float
        P(fail): the power when the truth is a regression, the false-fail probability when
        it is not.

    Examples
    --------
    vLLM's gate (n = 1,319, expected 0.88, tolerance 0.08) against a true 0.83:

    >>> round(threshold_gate_fail_probability(n=1319, true_accuracy=0.83, tolerance=0.08,
    ...                                       expected=0.88), 4)
    0.0024
    """
    from scipy import stats

    if (expected is None) == (baseline_accuracy is None):
        raise InvalidInputError("give expected (a fixed threshold) or baseline_accuracy (a "
                                "measured baseline), one of them.")
    check_probability(true_accuracy, "true_accuracy")
    k = np.arange(n + 1)
    if expected is not None:
        # fail when k / n < expected - tolerance, i.e. k < n (expected - tolerance)
        return float(stats.binom.pmf(k, n, true_accuracy)[k < n * (expected - tolerance)].sum())
    pc = stats.binom.pmf(k, n, true_accuracy)
    pb = stats.binom.pmf(k, n, baseline_accuracy)
    # P(X_c - X_b < -n tol) = sum_b P(X_b = b) P(X_c < b - n tol)
    below = np.concatenate([[0.0], np.cumsum(pc)])       # below[j] = P(X_c < j)
    j = np.clip(np.ceil(k - n * tolerance - 1e-9).astype(int), 0, n + 1)
    return float(pb @ below[j])
