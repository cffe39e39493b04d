"""Stability of a gate (A/A): how often does it call a regression between two runs of one
build?

Two runs of the same build differ only by chance (sampling at temperature > 0, batching,
non-deterministic kernels). The check resamples the items with replacement and, because the
two runs' labels are exchangeable under "same build", swaps each resampled item's two
scores with probability 1/2 (a randomisation of the paired differences' signs); the gate's
decisions on every resample give the distribution of its verdict when nothing changed. Its
**flip rate** is the share of resamples whose verdict is "regression": a calibrated gate
keeps it at or below α. The gate is flagged as mis-specified when the flip rate exceeds α
beyond Monte Carlo error (the lower end of the 95% Wilson interval of the rate above α).

The decisions of a resample are those of :func:`outperform.gate`, computed for all
resamples at once by :func:`gate_pvalues` (the row form of its tests).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy import special

from .._cost import check_cost
from .._validation import InvalidInputError
from ..stats._mcnemar import exact_pvalues
from ..stats._multipletests import holm_rows
from ..stats._noninferiority import _score
from ..stats._proportion import proportion_confint


def gate_pvalues(d, *, binary: bool, margin: float | None = None):
    """One-sided p-values of regression and of non-inferiority for rows of paired differences.

    The row form of the tests of :func:`outperform.gate` on independent items: each row's
    p-values equal the gate's on that row's items.

    Parameters
    ----------
    d : array_like, shape (B, n)
        Per-item differences candidate − baseline (positive favours the candidate); for
        0/1 scores in {−1, 0, 1}.
    binary : bool
        0/1 scores: exact McNemar (no margin) or Tango's score test; else the paired t-test.
    margin : float, optional
        δ > 0.

    Returns
    -------
    (ndarray, ndarray or None)
        p of regression (H1: d < −δ) and of non-inferiority (H1: d > −δ; None without a
        margin), shape (B,).
    """
    d = np.asarray(d, dtype=float)
    n = d.shape[1]
    shift = 0.0 if margin is None else float(margin)
    if binary:
        n10, n01 = (d > 0).sum(axis=1), (d < 0).sum(axis=1)
        if margin is None:
            return np.asarray(exact_pvalues(n01, n10, "less"), dtype=float), None
        z = _score(-shift, n01, n10, n)
        return special.ndtr(z), special.ndtr(-z)
    mean = d.mean(axis=1) + shift
    sd = d.std(axis=1, ddof=1)
    flat = sd <= 1e-12 * np.maximum(1.0, np.abs(d).max(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = mean / (sd / np.sqrt(n))
    p_reg = np.where(flat, np.where(mean < 0, 0.0, 1.0), special.stdtr(n - 1, t))
    p_pass = np.where(flat, np.where(mean > 0, 0.0, 1.0), special.stdtr(n - 1, -t))
    return p_reg, (None if margin is None else p_pass)


def verdict_rows(p_reg, p_pass, alpha: float) -> np.ndarray:
    """Verdicts of B gates over T tasks from (B, T) p-values: 2 regression, 1 inconclusive,
    0 pass (the rule of :func:`outperform.gate`, Holm across the T tasks of each row)."""
    reg = holm_rows(p_reg) < alpha
    if p_pass is None:
        return np.where(reg.any(axis=1), 2, 0)
    ok = holm_rows(p_pass) < alpha
    return np.where(reg.any(axis=1), 2, np.where((~ok).any(axis=1), 1, 0))


def flagged(flips: int, n_resamples: int, alpha: float) -> tuple[bool, tuple[float, float]]:
    """Whether ``flips`` regressions in ``n_resamples`` A/A resamples exceed α beyond Monte
    Carlo error: the lower end of the 95% Wilson interval of the flip rate above α; and the
    interval."""
    lo, hi = proportion_confint(flips, n_resamples, method="wilson")
    return bool(lo > alpha), (float(lo), float(hi))


def aa_check(result, paired, hib: bool, *, n_resamples: int = 1000, random_state=0):
    """The A/A check of a gate's ``result`` on its ``paired`` tasks (module docstring).

    Returns
    -------
    GateResult
        ``result`` with ``aa``: ``flip_rate``, ``shares`` of each verdict, ``n_resamples``,
        ``flip_rate_interval`` (95% Wilson), ``misspecified`` and a ``message``.

    Raises
    ------
    InvalidInputError
        Items in clusters (resampling them whole is not done here); ``n_resamples`` below
        100; more work than the memory or an hour allows (:func:`outperform._cost.check_cost`).
    """
    if any(p.clusters is not None for p in paired.values()):
        raise InvalidInputError("the A/A check resamples items one by one; with --cluster the "
                                "clusters would have to be resampled whole, which it does not "
                                "do: run --aa without --cluster.")
    if isinstance(n_resamples, bool) or int(n_resamples) != n_resamples or n_resamples < 100:
        raise InvalidInputError(f"n_resamples must be a whole number >= 100, got "
                                f"{n_resamples!r}.")
    n_max = max(len(p.examples) for p in paired.values())
    check_cost("n_resamples (--n-resamples)", n_resamples,
               work=f"{n_max:,} items x {len(paired)} task(s)", bytes_per_unit=32.0 * n_max,
               seconds_per_unit=2e-8 * n_max * len(paired))
    rng = np.random.default_rng(random_state)
    sign = 1.0 if hib else -1.0
    regs, passes = [], []
    for p in paired.values():              # a few tasks; the resamples are vectorised
        d = sign * (p.scores[:, 1] - p.scores[:, 0])
        n = d.size
        rows = d[rng.integers(0, n, (n_resamples, n))] * rng.choice((-1.0, 1.0),
                                                                    (n_resamples, n))
        binary = p.binary
        pr, pp = gate_pvalues(rows, binary=binary, margin=result.margin)
        regs.append(pr)
        passes.append(pp)
    p_pass = None if result.margin is None else np.column_stack(passes)
    verdicts = verdict_rows(np.column_stack(regs), p_pass, result.alpha)
    flips = int((verdicts == 2).sum())
    misspecified, (lo, hi) = flagged(flips, n_resamples, result.alpha)
    rate = flips / n_resamples
    message = (f"A/A: the gate calls a regression on {rate:.1%} of {n_resamples} resamples of "
               f"two runs of one build (95% interval [{lo:.1%}, {hi:.1%}]); "
               + (f"above α = {result.alpha:g}: the gate is mis-specified (it fails unchanged "
                  "builds too often); widen the margin, add items or lower α."
                  if misspecified else f"within α = {result.alpha:g}: the gate is stable."))
    aa = {"flip_rate": rate, "flip_rate_interval": [float(lo), float(hi)],
          "shares": {v: float(np.mean(verdicts == code)) for v, code in
                     (("pass", 0), ("inconclusive", 1), ("regression", 2))},
          "n_resamples": int(n_resamples), "misspecified": misspecified, "message": message}
    return replace(result, aa=aa)
