"""Bayesian sign and signed-rank tests with a ROPE (Benavoli, Corani, Demšar & Zaffalon 2017).

Both tests put a Dirichlet-process posterior on the distribution of the score difference
z = a - b over data sets (one z per data set, higher score = better, so z > 0 favours A).
The prior is a pseudo-observation z0 of weight s (``prior_strength``); the posterior weights
of (z0, z_1, ..., z_q) are w ~ Dirichlet(s, 1, ..., 1) (NOTES.md, Benavoli et al. 2017 §3).

* Sign test: theta_left = sum_i w_i [z_i < low], theta_rope = sum_i w_i [low <= z_i <= high],
  theta_right = sum_i w_i [z_i > high]. By the aggregation property of the Dirichlet this is
  theta ~ Dirichlet(n_left, n_rope, n_right) plus s on the region of z0.
* Signed-rank test: the same over Walsh averages, theta_left = sum_i sum_j w_i w_j
  [(z_i + z_j) / 2 < low] (all ordered pairs, i = j included), a Walsh average on a bound
  counting half, as in baycomp.

P(left), P(rope), P(right) are the shares of posterior draws in which that theta is the
largest (ties shared evenly; baycomp's argmax gives them to the first region).

Speed. The signed-rank posterior is a quadratic form in the weights; evaluating it as
w' H w costs O(q^2) per draw, which is what baycomp does in a Python loop. Here the
differences are sorted once, and the weight of {j : z_j < t} is a cumulative sum of the
sorted weights read at a ``searchsorted`` position, so a draw costs O(q) (in practice a
fraction of q lookups, see the kernel's comment), and the draws are processed as arrays.
Because the Dirichlet(1, ..., 1) weights of the data sets are exchangeable, they are drawn
directly in sorted order of z: the posterior is unchanged, the result does not depend on the
order of the data sets, and all pairs of a pairwise comparison share one set of draws.
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import (
    InvalidInputError,
    TooFewError,
    as_float_array,
    as_paired,
    check_choice,
    check_threshold,
    check_random_state,
    check_rope,
)
from ..results import BayesianResult
from ._rope import decide

__all__ = ["bayesian_signed_rank_test", "signed_rank_probabilities"]

PRIOR_PLACES = ("rope", "left", "right")
PRIOR_PLACES_INDEX = {"left": 0, "rope": 1, "right": 2}
# Draws processed at once by the signed-rank kernel: the cumulative weights of a block stay
# in the processor cache while every pair is evaluated on them.
_BLOCK = 4096
# Region masses closer than this are tied (see _winner_counts).
_TIE = 1e-12


def _check_options(prior_strength, n_samples, threshold, prior_place) -> None:
    if not (np.isfinite(prior_strength) and prior_strength > 0):
        raise InvalidInputError(
            "prior_strength (weight s of the pseudo-observation) must be > 0, got "
            f"{prior_strength!r}."
        )
    if int(n_samples) != n_samples or n_samples < 1:
        raise InvalidInputError(f"n_samples must be a positive integer, got {n_samples!r}.")
    check_threshold(threshold)
    check_choice(prior_place, "prior_place", PRIOR_PLACES)


def _differences(a, b) -> np.ndarray:
    x, y = as_paired(a, b)
    if x.size == 0:
        raise TooFewError("a and b are empty: the test needs one score per data set.")
    return x - y


def _winner_counts(left: np.ndarray, rope: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Number of draws in which each region is the largest (ties shared evenly).

    Masses within 1e-12 of each other are ties: the kernel computes theta_left and
    theta_right by different sums, so exact ties (e.g. all differences 0, no ROPE, where both
    are 1/2) would otherwise be broken by rounding.
    """
    top = np.maximum(np.maximum(left, rope), right) - _TIE
    best = [left >= top, rope >= top, right >= top]
    n_best = best[0].astype(np.int8) + best[1] + best[2]
    if n_best.max() == 1:
        return np.array([np.count_nonzero(b) for b in best], dtype=float)
    return np.array([(b / n_best).sum() for b in best])


def _result(method: str, parameter: str, probs: np.ndarray, theta: np.ndarray, rope,
            threshold: float, details: dict) -> BayesianResult:
    n = theta.shape[0]
    se = np.sqrt(probs * (1 - probs) / n)
    p_left, p_rope, p_right = (float(v) for v in probs)
    details = dict(details, n_samples=n, theta_mean=theta.mean(axis=0), mc_standard_errors=se)
    return BayesianResult(
        method=method, parameter=parameter, p_left=p_left, p_rope=p_rope, p_right=p_right,
        rope=rope, a_better_side="right", threshold=threshold,
        decision=decide(p_left, p_rope, p_right, a_better_side="right",
                        threshold=threshold),
        mc_standard_error=float(se[int(np.argmax(probs))]), details=details, samples=theta)


def _region_plan(z: np.ndarray, c: float) -> list:
    """Lookups for the mass of the region z_i + z_j < c (z ascending)."""
    q = z.size
    rows = np.arange(q)
    positions = [_pair_positions(z, c, strict) for strict in (True, False)]
    # Pairs on the boundary (z_i + z_j = c) count half: average the "<" and "<=" regions.
    if np.array_equal(*positions):
        positions, weight = positions[:1], 1.0
    else:
        weight = 0.5
    plan = []
    for x in positions:
        d = int(np.count_nonzero(x > rows))
        m = int(np.count_nonzero(x > rows + 1))
        f = min(int(np.count_nonzero(x == q)), m)
        a = int(np.count_nonzero(x >= rows))
        e = max(int(np.count_nonzero(x > 0)), a)
        if m - f <= e - a:
            plan.append((weight, d, "rows", f, m, x[f:m]))
        else:
            plan.append((weight, d, "columns", a, e, x[a:e]))
    return plan


def _pair_positions(z: np.ndarray, c: float, strict: bool) -> np.ndarray:
    """For each i, #{j : z_i + z_j < c} (``strict``) or #{j : z_i + z_j <= c}, z ascending.

    The sums are compared as computed, z_i + z_j (commutative in floating point, so the
    region is symmetric: (i, j) and (j, i) always fall on the same side); searching z for
    c - z_i alone can differ by a rounding (c - z_i == c for a z_i far below c's last
    digit) and count a pair in one order but not in the other, which broke the mirror
    symmetry of the test (swapping A and B). The search is corrected by steps of one,
    vectorised over i; fl(z_i + z_j) is monotone in z_j, so the region stays a prefix.
    """
    q = z.size
    inside = np.less if strict else np.less_equal
    x = np.searchsorted(z, c - z, side="left" if strict else "right")
    for _ in range(q + 1):
        down = (x > 0) & ~inside(z + z[np.maximum(x - 1, 0)], c)
        up = (x < q) & inside(z + z[np.minimum(x, q - 1)], c)
        if not (down.any() or up.any()):
            break
        x = x - down + up
    return x


def _region_mass(plan: list, w: dict) -> np.ndarray:
    """Weight of the data pairs in a region, for each draw of the block ``w``."""
    u, cum, cross, square = w["u"], w["cum"], w["prefix_cross"], w["prefix_square"]
    total = 0.0
    for weight, d, way, lo, hi, x in plan:
        if way == "rows":
            upper = cum[lo] * cum[-1] - cross[hi] - square[hi]
        else:
            upper = cross[lo]
        if hi > lo:
            upper = upper + np.einsum("in,in->n", u[lo:hi], cum[x])
        total = total + weight * (2 * upper + square[d])
    return total


def _count_region(z: np.ndarray, c: float) -> tuple[int, int]:
    """Positions in the cumulative weights of {j : z_j < c} and {j : z_j <= c}."""
    return np.searchsorted(z, c, side="left"), np.searchsorted(z, c, side="right")


def _heaviside(x: float) -> float:
    return 1.0 if x > 0 else (0.5 if x == 0 else 0.0)


def _pseudo_value(rope, prior_place) -> float:
    low, high = rope
    return {"rope": (low + high) / 2, "left": -math.inf, "right": math.inf}[prior_place]


def _signed_rank_plan(z: np.ndarray, rope, z0: float) -> dict:
    """Everything about one pair of models that does not depend on the posterior draw."""
    low, high = rope
    z = np.sort(z)
    return {
        # Data pairs: z_i + z_j < 2 low is left, z_i + z_j <= 2 high is "not right".
        "left": _region_plan(z, 2 * low),
        "not_right": _region_plan(z, 2 * high),
        # Pairs (0, j) and (j, 0) of the pseudo-observation with a data set.
        "pseudo_left": _count_region(z, 2 * low - z0),
        "pseudo_not_right": _count_region(z, 2 * high - z0),
        # The pair (0, 0).
        "h_left": _heaviside(2 * low - 2 * z0),
        "h_right": _heaviside(2 * z0 - 2 * high),
    }


def _weight_block(q: int, prior_strength: float, n: int, rng) -> dict:
    """n draws of w ~ Dirichlet(s, 1, ..., 1) and the prefix sums the kernel reads.

    The data weights are exchangeable, so they are drawn directly in sorted order of z.
    """
    g0 = rng.standard_gamma(prior_strength, n)
    g = rng.standard_exponential((q, n))
    total = g0 + g.sum(axis=0)
    u = g / total
    cum = _prefix_sums(u)
    return {"u0": g0 / total, "u": u, "cum": cum,
            "prefix_cross": _prefix_sums(u * cum[:-1]), "prefix_square": _prefix_sums(u * u)}


def _prefix_sums(x: np.ndarray) -> np.ndarray:
    """Cumulative sums down the rows of x (q, n), with a leading row of zeros."""
    out = np.zeros((x.shape[0] + 1, x.shape[1]))
    # One vector addition per row: about 20 times faster than np.cumsum(axis=0), which
    # walks each column with a stride.
    for i, row in enumerate(x):
        np.add(out[i], row, out=out[i + 1])
    return out


def _signed_rank_block(plan: dict, w: dict) -> tuple[np.ndarray, np.ndarray]:
    """theta_left and theta_right for a block of draws."""
    cum, u0 = w["cum"], w["u0"]
    data = cum[-1]
    i, k = plan["pseudo_left"]
    pseudo_left = 0.5 * (cum[i] + cum[k])
    i, k = plan["pseudo_not_right"]
    pseudo_right = data - 0.5 * (cum[i] + cum[k])
    left = _region_mass(plan["left"], w) + 2 * u0 * pseudo_left + plan["h_left"] * u0 ** 2
    right = (data ** 2 - _region_mass(plan["not_right"], w) + 2 * u0 * pseudo_right
             + plan["h_right"] * u0 ** 2)
    return left, right


def _signed_rank_posterior(zs, rope, prior_strength, prior_place, n_samples, rng,
                           keep_samples: bool):
    """Region probabilities (P, 3) and, optionally, the (n_samples, 3) draws of the first.

    ``zs`` holds P difference vectors of the same length q; all share the Dirichlet draws,
    generated block by block so that a block's prefix sums stay in the processor cache while
    every pair is evaluated on them.
    """
    q = zs[0].size
    z0 = _pseudo_value(rope, prior_place)
    plans = [_signed_rank_plan(z, rope, z0) for z in zs]
    wins = np.zeros((len(zs), 3))
    samples = np.empty((n_samples, 3)) if keep_samples else None
    for start in range(0, n_samples, _BLOCK):
        n = min(_BLOCK, n_samples - start)
        w = _weight_block(q, prior_strength, n, rng)
        for p, plan in enumerate(plans):
            left, right = _signed_rank_block(plan, w)
            # Differences of prefix sums can round to -1e-16 where the exact mass is 0.
            left, right = np.maximum(left, 0.0), np.maximum(right, 0.0)
            rope_mass = np.maximum(1 - left - right, 0.0)
            wins[p] += _winner_counts(left, rope_mass, right)
            if keep_samples:
                samples[start:start + n] = np.column_stack([left, rope_mass, right])
    return wins / n_samples, samples


def signed_rank_probabilities(differences, *, rope=0.0, prior_strength: float = 0.5,
                              prior_place: str = "rope", n_samples: int = 50000,
                              random_state=0) -> np.ndarray:
    """Region probabilities of the Bayesian signed-rank test for many experiments at once.

    The batched form of :func:`bayesian_signed_rank_test` for simulations: row r gives the
    (p_left, p_rope, p_right) of ``bayesian_signed_rank_test(differences[r], 0, ...)``. All
    rows share one set of posterior draws (module docstring), so each row's probabilities
    are those of the scalar test with some seed.

    Parameters
    ----------
    differences : array_like, shape (R, q)
        One row of score differences a - b over q data sets per experiment (z > 0 favours A).
    rope, prior_strength, prior_place, n_samples, random_state
        As in :func:`bayesian_signed_rank_test`.

    Returns
    -------
    ndarray, shape (R, 3)
        (p_left, p_rope, p_right) per row; ``p_right`` is P(A practically better).

    Raises
    ------
    InvalidInputError
        Not a 2-D finite array, bad ROPE or options.
    TooFewError
        No data set (q = 0).

    Examples
    --------
    The example of :func:`bayesian_signed_rank_test`, twice:

    >>> a = np.array([0.815, 0.92, 0.77, 0.85, 0.90, 0.68, 0.88, 0.95, 0.792, 0.83])
    >>> b = np.array([0.80, 0.90, 0.775, 0.81, 0.86, 0.695, 0.85, 0.91, 0.79, 0.805])
    >>> signed_rank_probabilities([a - b, a - b], rope=0.01, random_state=0).round(3)
    array([[0.   , 0.059, 0.941],
           [0.   , 0.059, 0.941]])
    """
    z = as_float_array(differences, "differences", ndim=2)
    if z.shape[1] == 0:
        raise TooFewError("differences has no column: the test needs one score per data set.")
    rope = check_rope(rope)
    _check_options(prior_strength, n_samples, 0.95, prior_place)
    probs, _ = _signed_rank_posterior(list(z), rope, float(prior_strength), prior_place,
                                      int(n_samples), check_random_state(random_state),
                                      keep_samples=False)
    return probs


def bayesian_signed_rank_test(a, b, *, rope=0.0, prior_strength: float = 0.5,
                              prior_place: str = "rope", n_samples: int = 50000,
                              random_state=0, threshold: float = 0.95) -> BayesianResult:
    """Bayesian signed-rank test with a ROPE (Benavoli et al. 2017, Dirichlet process).

    The posterior of (theta_left, theta_rope, theta_right), the probabilities that the
    Walsh average (z + z') / 2 of two data sets' differences z = a - b lies below, inside or
    above the ROPE, computed in O(q) per draw (see the module docstring).

    Parameters
    ----------
    a, b : array_like, shape (q,)
        One score per data set for model A and model B, paired by data set; higher is better
        (for losses pass ``a=loss_B, b=loss_A``).
    rope : float or (float, float)
        Region of practical equivalence for z = a - b, in score units: r means [-r, r].
    prior_strength : float
        Weight s > 0 of the pseudo-observation (default 0.5, as baycomp's SignedRankTest and
        Benavoli et al. 2017).
    prior_place : {"rope", "left", "right"}
        Value of the pseudo-observation: the middle of the ROPE (0 for a symmetric ROPE, the
        paper's choice), or -inf / +inf to put the prior on one model.
    n_samples : int
        Number of posterior draws.
    random_state : None, int or numpy.random.Generator
    threshold : float
        Decision threshold of Williams (2026) §5.2.

    Returns
    -------
    BayesianResult
        ``p_left``, ``p_rope``, ``p_right``: posterior probabilities that theta_left,
        theta_rope, theta_right is the largest; ``a_better_side="right"``; ``samples`` the
        (n_samples, 3) draws; ``mc_standard_error`` that of the largest probability;
        ``details``: ``theta_mean``, ``mc_standard_errors``, ``n_data_sets``.

    Raises
    ------
    InvalidInputError
        Unpaired or non-finite scores, bad ROPE, prior_strength <= 0, bad prior_place,
        n_samples or threshold.
    TooFewError
        No data set.

    Notes
    -----
    baycomp's ``SignedRankTest(x, y)`` uses y - x, so its (left, rope, right) are ours with
    ``a=y, b=x``. Its per-draw cost is O(q^2) in a Python loop; this one agrees with it
    within Monte Carlo error (``benchmarks/validate_baycomp.py``). With ``rope=0`` every Walsh
    average is left or right (a zero counting half to each), so ``p_rope`` is 0. Whether a
    Walsh average lies exactly on a ROPE bound is decided in floating point by comparing z_j
    with 2 low - z_i (baycomp compares z_i + z_j with 2 low); the two can differ in the last
    bit for values that are ties in decimal.

    References
    ----------
    Benavoli, Corani, Demšar & Zaffalon (2017), JMLR 18(77), §3-5; Benavoli et al. (2014),
    ICML.

    Examples
    --------
    >>> a = [0.815, 0.92, 0.77, 0.85, 0.90, 0.68, 0.88, 0.95, 0.792, 0.83]
    >>> b = [0.80, 0.90, 0.775, 0.81, 0.86, 0.695, 0.85, 0.91, 0.79, 0.805]
    >>> res = bayesian_signed_rank_test(a, b, rope=0.01, random_state=0)
    >>> round(res.p_left, 3), round(res.p_rope, 3), round(res.p_right, 3), res.decision
    (0.0, 0.059, 0.941, 'undecided')
    >>> res.samples.shape, round(res.mc_standard_error, 4)
    ((50000, 3), 0.0011)
    """
    z = _differences(a, b)
    rope = check_rope(rope)
    _check_options(prior_strength, n_samples, threshold, prior_place)
    probs, theta = _signed_rank_posterior(
        [z], rope, float(prior_strength), prior_place, int(n_samples),
        check_random_state(random_state), keep_samples=True)
    details = {"n_data_sets": int(z.size), "prior_strength": float(prior_strength),
               "prior_place": prior_place}
    return _result(
        "Bayesian signed-rank test (Benavoli et al. 2017)",
        "(theta_left, theta_rope, theta_right): posterior shares of Walsh averages of a - b "
        "below, inside, above the ROPE", probs[0], theta, rope, threshold, details)


# --- all pairs ---------------------------------------------------------------------------
