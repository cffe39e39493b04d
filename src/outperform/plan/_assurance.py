"""Bayesian assurance: the probability that a planned Bayesian test reaches each decision of
Williams (2026) §5.2, before the data are collected."""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._cost import check_cost
from .._validation import InvalidInputError, check_probability
from ..bayes._beta_mixture import beta_tail
from ..bayes._mcnemar import default_phi_rope, phi_rope_bounds
from ._binomial import _check_accuracies
from ._result import Assurance

__all__ = ["mcnemar_assurance"]

DECISIONS = ("A better", "B better", "practically equivalent", "undecided")
# Binomial tails below this are left out of the enumeration (their total mass is reported).
_TAIL = 1e-13


#: measured (n = 10⁸, 42,000 discordant counts: 3.5 s, 180 MB): per discordant count
_BYTES_PER_ROW, _SECONDS_PER_ROW = 1000.0, 1e-4
#: Discordant counts enumerated one by one (~10 s; n psi (1 - psi) up to ~4.6e7). Beyond, the
#: sum over D is a midpoint rule over :data:`QUADRATURE_NODES` values of D spread over its
#: ±7.4 sd, each weighted by the normal approximation's mass of its bin: constant time and
#: memory (~1 s). At n = 2e8, psi = 0.1 (62,000 counts) the two agree to 6e-7 on every
#: decision (tests/plan/test_assurance_large_n.py).
EXACT_ROWS = 100_000
QUADRATURE_NODES = 4001
#: Largest expected discordant count: counts are whole numbers in double precision (2^53).
_MAX_COUNT = 2.0 ** 53


def _d_bounds(n, psi) -> tuple[int, int]:
    """First and last discordant count d with binomial mass above the tails left out."""
    return int(stats.binom.ppf(_TAIL, n, psi)), int(stats.binom.isf(_TAIL, n, psi))


def _d_range(n, psi):
    first, last = _d_bounds(n, psi)
    return np.arange(first, last + 1)


def _posterior(n01, d, prior, rope):
    """Beta parameters of phi and the ROPE bounds (as phi_posterior_regions forms them)."""
    a = prior[0] + np.asarray(n01, dtype=float)
    b = prior[1] + np.asarray(d - n01, dtype=float)
    if rope is None:
        low, high = default_phi_rope(a / (a + b))
    else:
        low, high = phi_rope_bounds(rope)
    return a, b, low, high


def _p_left(n01, d, prior, rope):
    a, b, low, _ = _posterior(n01, d, prior, rope)
    return beta_tail(a, b, low)


def _p_right(n01, d, prior, rope):
    a, b, _, high = _posterior(n01, d, prior, rope)
    return beta_tail(a, b, high, upper=True)


def _p_rope(n01, d, prior, rope):
    a, b, low, high = _posterior(n01, d, prior, rope)
    return np.clip(1.0 - beta_tail(a, b, low) - beta_tail(a, b, high, upper=True), 0.0, 1.0)


def _bisect(holds, lo, hi, rows):
    """Largest x in [lo, hi] (int arrays over ``rows``) with ``holds(x, rows)``, for a
    ``holds`` that is true then false along x; ``lo − 1`` where it holds nowhere."""
    best, low, high = lo - 1, lo.copy(), hi.copy()
    while True:
        active = low <= high
        if not active.any():
            return best
        mid = np.where(active, (low + high) // 2, lo)
        ok = holds(mid, rows) & active
        best = np.where(ok, mid, best)
        low = np.where(ok, mid + 1, low)
        high = np.where(active & ~ok, mid - 1, high)


#: one row in this many is searched over its whole range; the others between its answers
_STRIDE = 64


def _search(holds, lo, hi):
    """:func:`_bisect` for every row, most of them in a narrow bracket.

    The answers change smoothly from one discordant count to the next, so the rows are first
    solved one in :data:`_STRIDE`, and each other row is bisected between its neighbours'
    answers (± 2) after checking that the bracket holds it (true at its low end, false past
    its high end); rows whose bracket fails are bisected over their whole range. The result
    is the same as bisecting every row over its whole range.
    """
    n = lo.size
    rows = np.arange(n)
    if n <= 4 * _STRIDE:
        return _bisect(holds, lo, hi, rows)
    sample = np.unique(np.append(rows[::_STRIDE], n - 1))
    known = _bisect(holds, lo[sample], hi[sample], sample)
    j = np.searchsorted(sample, rows, side="right") - 1
    k = np.minimum(j + 1, sample.size - 1)
    g_lo = np.maximum(np.minimum(known[j], known[k]) - 2, lo - 1)
    g_hi = np.minimum(np.maximum(known[j], known[k]) + 2, hi)
    ok_low = (g_lo < lo) | holds(np.maximum(g_lo, lo), rows)
    ok_high = (g_hi >= hi) | ~holds(np.minimum(g_hi + 1, hi), rows)
    good = ok_low & ok_high
    out = np.empty(n, dtype=lo.dtype)
    if good.any():
        r = rows[good]
        start = np.maximum(g_lo[good], lo[good])
        out[good] = _bisect(holds, start, g_hi[good], r)   # lo − 1 where none holds
    if (~good).any():
        r = rows[~good]
        out[~good] = _bisect(holds, lo[~good], hi[~good], r)
    return out


def _decision_probabilities(n, delta, psi, prior, rope, threshold, d=None, weight=None):
    """P(each decision) of the Bayesian McNemar test on n examples, exactly, from the change
    points of the decision along n01 for every discordant count d.

    D ~ Bin(n, psi) and n01 | D = d ~ Bin(d, q01), q01 = (psi − delta) / (2 psi). For fixed d
    the posterior Beta(a + n01, b + d − n01) moves right as n01 grows, so "A better"
    (P(phi < low) ≥ threshold) holds on n01 ≤ c1(d), "B better" on n01 ≥ c2(d) and
    "practically equivalent" on an interval around d / 2; the change points are found by
    bisection (vectorised over d) and each decision's probability given d is a difference of
    binomial CDFs. The work grows like the number of d values (≈ 14 sqrt(n psi (1 − psi))),
    not like the (d, n01) grid. tests/plan/test_assurance.py checks it against the decision
    of every (n01, n10) cell enumerated.
    """
    q01 = (psi - delta) / (2 * psi)
    if d is None:
        d = _d_range(n, psi).astype(np.int64)
    zero = np.zeros_like(d)

    def left(x, rows):
        return _p_left(x, d[rows], prior, rope) >= threshold

    def right_not(x, rows):       # "B better" fails: true then false along x
        return ~(_p_right(x, d[rows], prior, rope) >= threshold)

    c1 = _search(left, zero, d)                       # A better: n01 ≤ c1
    c2 = _search(right_not, zero, d) + 1              # B better: n01 ≥ c2
    # practically equivalent: an interval around the n01 whose posterior is centred at 1/2
    a0, b0 = prior
    centre = np.clip(np.rint((d + a0 + b0) / 2 - a0), 0, d).astype(np.int64)
    candidates = np.stack([np.clip(centre + s, 0, d) for s in (-1, 0, 1)])
    inside = np.stack([_p_rope(c, d, prior, rope) >= threshold for c in candidates])
    mode = np.where(inside.any(axis=0), candidates[np.argmax(inside, axis=0), np.arange(d.size)],
                    -1)
    has = mode >= 0
    m = np.where(has, mode, 0)

    def rope_above(x, rows):      # the ROPE holds at m + x
        return _p_rope(m[rows] + x, d[rows], prior, rope) >= threshold

    def rope_below(x, rows):      # the ROPE holds at m − x
        return _p_rope(m[rows] - x, d[rows], prior, rope) >= threshold

    e2 = m + _search(rope_above, zero, d - m)
    e1 = m - _search(rope_below, zero, m).clip(min=0)
    if weight is None:
        weight = stats.binom.pmf(d, n, psi)
    cdf = stats.binom.cdf
    p_a = np.where(c1 >= 0, cdf(c1, d, q01), 0.0)
    p_b = np.where(c2 <= d, stats.binom.sf(c2 - 1, d, q01), 0.0)
    p_e = np.where(has, cdf(e2, d, q01) - np.where(e1 > 0, cdf(e1 - 1, d, q01), 0.0), 0.0)
    probs = np.array([weight @ p_a, weight @ p_b, weight @ p_e, 0.0])
    covered = float(weight.sum())
    probs[3] = max(0.0, covered - probs[:3].sum())
    return probs, covered


def mcnemar_assurance(*, n, accuracy_a, accuracy_b, discordance, weights=None,
                      prior=(1.0, 1.0), rope=None, threshold=0.95) -> Assurance:
    """Probability that the Bayesian McNemar test on n test examples decides "A better",
    "B better", "practically equivalent" or "undecided".

    The decision is that of :func:`outperform.bayes.bayesian_mcnemar` (Beta posterior of
    phi = theta01 / (theta01 + theta10), Lacoste et al. 2012 Thm 4.1; ROPE and threshold of
    Williams 2026 §5.2), computed for every possible (n01, n10) and weighted by its
    probability under the design: exact, no simulation. With several ``accuracy_a`` values
    (draws or nodes of a design prior on A's accuracy, with ``weights``) the probabilities
    are averaged over them: the assurance of O'Hagan & Stevens (2001).

    Parameters
    ----------
    n : int
        Test-set size.
    accuracy_a : float or sequence of float
        A's expected accuracy, or values of a design prior on it.
    accuracy_b : float
        B's expected accuracy.
    discordance : float
        Share of examples on which exactly one model is right (>= |acc_a - acc_b| for every
        value).
    weights : sequence of float, optional
        Design-prior weights of the ``accuracy_a`` values (default equal).
    prior, rope, threshold
        As in :func:`outperform.bayes.bayesian_mcnemar` (rope None: Williams' eq. 7 ROPE).

    Returns
    -------
    Assurance
        ``probabilities`` by decision; ``details["mass_left_out"]`` bounds the binomial
        tails the enumeration skipped (< 1e-10).

    Raises
    ------
    InvalidInputError
        n < 1, weights not matching the values or not positive, inputs
        :func:`mcnemar_power` refuses, a bad ROPE, prior or threshold; discordant counts
        beyond 2^53 (n psi above ~9e15; the message names the largest n).

    Notes
    -----
    Exact up to :data:`EXACT_ROWS` discordant counts (n psi (1 - psi) up to ~4.6e7), in time
    and memory that grow like sqrt(n) (n = 10⁸: about a second): for each discordant count
    the decision changes at a few values of n01, found by bisection, and the probabilities
    between them are binomial CDFs. Past it, the same conditional probabilities on
    :data:`QUADRATURE_NODES` discordant counts, weighted by the normal approximation of
    Bin(n, psi): constant time and memory, stated in ``details["approximation"]``.

    References
    ----------
    O'Hagan & Stevens (2001) Med Decis Making 21:219-230; Lacoste et al. (2012); Williams
    (2026) §5.2.
    """
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise InvalidInputError(f"n must be a whole number of test examples >= 1, got {n!r}.")
    check_probability(threshold, "threshold")
    values = np.atleast_1d(np.asarray(accuracy_a, dtype=float))
    w = np.ones(values.size) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != values.shape or np.any(w < 0) or not w.sum() > 0:
        raise InvalidInputError("weights must be non-negative, one per accuracy_a value, and "
                                "not all zero.")
    psi = float(discordance)
    for acc in values:
        _check_accuracies(float(acc), accuracy_b, psi)
    n = int(n)
    sd = (n * psi * (1 - psi)) ** 0.5
    if n * psi + 8 * sd > _MAX_COUNT:
        raise InvalidInputError(
            f"n = {n:,} test examples: the discordant counts (~{n * psi:.3g}) exceed what double "
            f"precision counts exactly (2^53); use n (--n) <= {int(_MAX_COUNT / 2 / psi):,}.")
    exact = 14.7 * sd + 1 <= EXACT_ROWS
    if exact:
        first, last = _d_bounds(n, psi)
        rows = values.size * (last - first + 1)
        # the work grows like the number of discordant counts, ~ sqrt(n)
        check_cost("n (--n)", n, work=f"{values.size} design point(s), {rows:,} discordant "
                   "counts", bytes_per_unit=_BYTES_PER_ROW * rows / n,
                   seconds_per_unit=_SECONDS_PER_ROW * rows / n)
    total, mass = np.zeros(len(DECISIONS)), 0.0
    for acc, wi in zip(values, w / w.sum()):          # a few design-prior nodes, not data
        d, weight = (None, None) if exact else _quadrature(n, psi)
        probs, covered = _decision_probabilities(n, float(acc) - accuracy_b, psi, prior,
                                                 rope, threshold, d=d, weight=weight)
        total += wi * probs
        mass += wi * covered
    approximation = None if exact else (
        f"n psi (1 - psi) = {sd ** 2:.3g}: past {EXACT_ROWS:,} discordant counts the sum over "
        f"them is a midpoint rule over {QUADRATURE_NODES:,} of them, each weighted by the "
        "normal approximation of its bin (error below 1e-6 where checked).")
    return Assurance(test="Bayesian McNemar test", n=int(n), n_unit="test examples",
                     probabilities=dict(zip(DECISIONS, total.tolist())),
                     details={"accuracy_a": values.tolist(), "accuracy_b": float(accuracy_b),
                              "discordance": psi, "threshold": float(threshold),
                              "rope": None if rope is None else rope,
                              "mass_left_out": max(0.0, 1.0 - mass),
                              **({"approximation": approximation} if approximation else {})})


def _quadrature(n: int, psi: float):
    """Nodes (whole discordant counts) and weights of the midpoint rule over D ~ Bin(n, psi)
    past :data:`EXACT_ROWS`: :data:`QUADRATURE_NODES` bins over mean ± 7.4 sd, each node
    weighted by the normal approximation's mass between the midpoints to its neighbours."""
    mu, sd = n * psi, (n * psi * (1 - psi)) ** 0.5
    edges = np.linspace(mu - 7.4 * sd, mu + 7.4 * sd, QUADRATURE_NODES + 1)
    d = np.unique(np.rint((edges[:-1] + edges[1:]) / 2).astype(np.int64))
    mids = np.concatenate([[-np.inf], (d[:-1] + d[1:]) / 2, [np.inf]])
    return d, np.diff(stats.norm.cdf((mids - mu) / sd))
