"""Anytime-valid confidence sequences for the mean of bounded scores, by betting.

A confidence sequence is a sequence of intervals ``(lower_t, upper_t)``, one after every
observation, that cover the mean at *all* times at once with probability at least
``1 − alpha``: an evaluation may be looked at after every item and stopped whenever its answer
is clear, and the error rate stays ``alpha``. A fixed-n interval checked the same way does not
(its error grows with the number of looks).

The construction is the hedged capital process of Waudby-Smith & Ramdas (2024), "Estimating
means of bounded random variables by betting", J. R. Stat. Soc. B 86(1), §4 ("hedged capital"
confidence sequence, with the predictable plug-in empirical-Bernstein bets of §3.2), for
observations ``x_t`` in ``[0, 1]``. For a candidate mean ``m``::

    K⁺_t(m) = Π_{i ≤ t} (1 + λ⁺_i(m) (x_i − m_i)),   K⁻_t(m) = Π_{i ≤ t} (1 − λ⁻_i(m) (x_i − m_i))
    K_t(m)  = max(K⁺_t(m) / 2, K⁻_t(m) / 2)
    CS_t    = {m : K_t(m) ≤ 1 / alpha}

with bets ``λ_t = sqrt(2 log(2/alpha) / (σ̂²_{t−1} t log(1 + t)))``, ``σ̂²_t = (1/4 + Σ (x_i −
μ̂_i)²) / (t + 1)``, ``μ̂_t = (1/2 + Σ x_i) / (t + 1)``, truncated at ``1 / (2 m_t)`` (for K⁺)
and ``1 / (2 (1 − m_t))`` (for K⁻). ``m_t = m`` when the items are drawn with replacement (an
infinite population); when the ``population`` of N items is sampled without replacement (a
benchmark of N items evaluated in a random order) ``m_t = (N m − S_{t−1}) / (N − t + 1)``
(their §6) and the interval targets the mean of all N items — the number the full evaluation
would give. The set is found on a grid of ``grid + 1`` candidate means and widened by one grid
step on each side (conservative by at most ``1 / grid``), then intersected with the logical
bounds of sampling without replacement.

These are exactly the defaults of ``confseq.betting.betting_cs`` (Waudby-Smith and Howard's
package; ``theta = 1/2``, ``trunc_scale = 1/2``, ``breaks = grid``) which the tests compare
to (equal to 1e-12). Where we differ from calling it: confseq 0.0.11 does not build on Python
3.11 (its C++ extension fails against pybind11) and its betting module needs numpy < 2
(``np.float_``), and ``expectation`` needs Python ≥ 3.12, so neither can be a dependency;
here the grid, the items and many streams are computed at once (numpy, in chunks of bounded
memory; confseq loops over the grid in Python), and a stream can be fed batch by batch
(:class:`BettingConfidenceSequence`).
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import InvalidInputError
from ..results._sequential import ConfidenceSequence

#: most float64 cells of one (streams × items × grid) block computed at once (~32 MB)
_BLOCK = 4_000_000


def _check_alpha(alpha: float) -> float:
    if not 0 < alpha < 1:
        raise InvalidInputError(f"alpha must be in (0, 1), got {alpha!r}.")
    return float(alpha)


def _unit(x, bounds: tuple[float, float], what: str = "x") -> np.ndarray:
    """``x`` mapped from ``bounds`` to [0, 1]; refuses values outside the bounds."""
    lo, hi = (float(b) for b in bounds)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise InvalidInputError(f"bounds must be two finite numbers, lower < upper; got {bounds!r}.")
    x = np.asarray(x, dtype=float)
    if x.size and not np.isfinite(x).all():
        raise InvalidInputError(f"{what} has missing or infinite values; a confidence sequence "
                                "needs every observation.")
    if x.size and (x.min() < lo or x.max() > hi):
        raise InvalidInputError(
            f"{what} has values in [{x.min():.6g}, {x.max():.6g}], outside the bounds "
            f"[{lo:g}, {hi:g}]: a betting confidence sequence needs scores known to lie in "
            "fixed bounds (pass bounds= for scores on another scale).")
    return (x - lo) / (hi - lo)


class _Capital:
    """The running state of the hedged capital process of many streams on a grid of means.

    ``shape`` is the shape of the streams (``()`` for one); ``grid`` the candidate means in
    [0, 1], shape ``(g,)`` (the same grid for every stream) or ``shape + (g,)``.
    :meth:`advance` takes the next observations, shape ``shape + (c,)``, and returns the log
    capitals ``log(K⁺_t(m) / 2)`` and ``log(K⁻_t(m) / 2)`` after each of them, each of shape
    ``shape + (c, g)``, with ``+inf`` where ``m`` is impossible (sampling without replacement);
    the hedged capital is their maximum.
    """

    def __init__(self, shape: tuple[int, ...], grid: np.ndarray, alpha: float,
                 population: int | None):
        self.grid = grid
        self.population = population
        self._log_bet = math.log(2 / alpha)        # confseq: lambda_predmix_eb(alpha * theta)
        self.t = 0
        self.sum = np.zeros(shape)
        self.sum_squares = np.zeros(shape)
        self.variance = np.full(shape, 0.25)       # σ̂²_{t−1}, prior variance 1/4 at t = 1
        self.log_plus = np.zeros(shape + (grid.shape[-1],))
        self.log_minus = np.zeros(shape + (grid.shape[-1],))

    def advance(self, x: np.ndarray) -> np.ndarray:
        c = x.shape[-1]
        if self.population is not None and self.t + c > self.population:
            raise InvalidInputError(
                f"{self.t + c} observations from a population of {self.population} items: "
                "sampling without replacement cannot see more items than the population has.")
        t = self.t + np.arange(1, c + 1, dtype=float)
        total = self.sum[..., None] + np.cumsum(x, axis=-1)
        mean = np.minimum((0.5 + total) / (t + 1), 1.0)
        squares = self.sum_squares[..., None] + np.cumsum((x - mean) ** 2, axis=-1)
        variance = (0.25 + squares) / (t + 1)
        previous = np.concatenate([self.variance[..., None], variance[..., :-1]], axis=-1)
        bet = np.sqrt(2 * self._log_bet / (t * np.log1p(t) * previous))[..., None]
        m = self.grid[..., None, :]
        if self.population is not None:                               # m_t, with S_{t−1}
            m = (self.population * m - (total - x)[..., None]) / (self.population - (t[:, None] - 1))
        with np.errstate(divide="ignore", invalid="ignore"):
            plus = np.minimum(bet, 0.5 / m)
            minus = np.minimum(bet, 0.5 / (1 - m))
            centred = x[..., None] - m
            step_plus = np.log1p(plus * centred)
            step_minus = np.log1p(-minus * centred)
        log_plus = self.log_plus[..., None, :] + np.cumsum(step_plus, axis=-2)
        log_minus = self.log_minus[..., None, :] + np.cumsum(step_minus, axis=-2)
        self.t += c
        self.sum, self.sum_squares = total[..., -1], squares[..., -1]
        self.variance = variance[..., -1]
        self.log_plus, self.log_minus = log_plus[..., -1, :], log_minus[..., -1, :]
        if self.population is not None:
            impossible = (m < 0) | (m > 1)
            log_plus = np.where(impossible, np.inf, log_plus)
            log_minus = np.where(impossible, np.inf, log_minus)
        return log_plus - math.log(2), log_minus - math.log(2)


def _chunks(n: int, cells_per_item: int):
    step = max(1, _BLOCK // max(cells_per_item, 1))
    for start in range(0, n, step):
        yield slice(start, min(n, start + step))


def _grid(grid: int) -> np.ndarray:
    if int(grid) != grid or grid < 2:
        raise InvalidInputError(f"grid must be an integer ≥ 2, got {grid!r}.")
    return np.arange(0, 1 + 1 / grid, step=1 / grid)   # confseq's possible_m, to the bit


def _check_population(population, n: int) -> int | None:
    if population is None:
        return None
    if int(population) != population or population < 1:
        raise InvalidInputError(f"population must be a positive whole number of items, got {population!r}.")
    if n > population:
        raise InvalidInputError(f"{n} observations from a population of {int(population)} items: "
                                "sampling without replacement cannot see more items than there are.")
    return int(population)


class BettingConfidenceSequence:
    """A betting confidence sequence fed batch by batch (a growing evaluation).

    ``update(batch)`` takes the next scores (1-D, in ``bounds``, in the order they were
    observed) and returns the :class:`~outperform.results.ConfidenceSequence` of every look so
    far; the result after any sequence of batches equals
    :func:`betting_confidence_sequence` on their concatenation.

    Examples
    --------
    >>> cs = BettingConfidenceSequence(alpha=0.05)
    >>> first = cs.update([1, 0, 1, 1, 1, 0, 1, 1])
    >>> result = cs.update([1, 1, 0, 1])
    >>> result.n, round(float(result.lower[-1]), 3), round(float(result.upper[-1]), 3)
    (12, 0.36, 0.999)
    """

    def __init__(self, *, alpha: float = 0.05, bounds: tuple[float, float] = (0.0, 1.0),
                 grid: int = 1000, population: int | None = None, running_intersection: bool = True):
        self.alpha = _check_alpha(alpha)
        self.bounds = (float(bounds[0]), float(bounds[1]))
        _unit([], self.bounds)
        self.grid = int(grid)
        self.population = _check_population(population, 0)
        self.running_intersection = bool(running_intersection)
        self._capital = _Capital((), _grid(self.grid), self.alpha, self.population)
        self._lower: list[np.ndarray] = []
        self._upper: list[np.ndarray] = []
        self._sum = 0.0

    def update(self, batch) -> ConfidenceSequence:
        """Add the next observations; returns the confidence sequence of all looks so far."""
        x = _unit(np.atleast_1d(batch), self.bounds, "batch").ravel()
        grid = self._capital.grid
        for part in _chunks(x.size, grid.size):
            piece = x[part]
            inside = np.maximum(*self._capital.advance(piece)) <= math.log(1 / self.alpha)
            found = inside.any(axis=-1)
            first = np.argmax(inside, axis=-1)
            last = grid.size - 1 - np.argmax(inside[:, ::-1], axis=-1)
            step = 1 / self.grid
            lower = np.where(found, np.maximum(0.0, grid[first] - step), 0.0)
            upper = np.where(found, np.minimum(1.0, grid[last] + step), 1.0)
            if self.population is not None:
                t = self._capital.t - piece.size + np.arange(1, piece.size + 1)
                seen = self._sum + np.cumsum(piece)
                lower = np.maximum(lower, seen / self.population)
                upper = np.minimum(upper, 1 - (t - seen) / self.population)
            self._sum += float(piece.sum())
            self._lower.append(lower)
            self._upper.append(upper)
        return self.result()

    def result(self) -> ConfidenceSequence:
        """The confidence sequence of every look so far (on the scale of ``bounds``)."""
        lower = np.concatenate(self._lower) if self._lower else np.empty(0)
        upper = np.concatenate(self._upper) if self._upper else np.empty(0)
        if self.running_intersection and lower.size:
            lower, upper = np.maximum.accumulate(lower), np.minimum.accumulate(upper)
        lo, hi = self.bounds
        return ConfidenceSequence(
            lower=lo + (hi - lo) * lower, upper=lo + (hi - lo) * upper, alpha=self.alpha,
            bounds=self.bounds, grid=self.grid, population=self.population,
            running_intersection=self.running_intersection)


def betting_confidence_sequence(x, *, alpha: float = 0.05, bounds: tuple[float, float] = (0.0, 1.0),
                                grid: int = 1000, population: int | None = None,
                                running_intersection: bool = True) -> ConfidenceSequence:
    """Anytime-valid confidence sequence for the mean of bounded scores (betting, hedged capital).

    Parameters
    ----------
    x : array_like, shape (n,)
        Scores in the order they were observed, each within ``bounds`` (0/1 correctness,
        a graded score in [0, 1], a paired difference in [−1, 1] with ``bounds=(-1, 1)``).
    alpha : float
        The probability that the sequence ever misses the mean, over all ``n`` looks.
    bounds : (float, float)
        Known lower and upper bounds of a score (not estimated from the data).
    grid : int
        Candidate means searched (``grid + 1`` points over ``bounds``); the bounds are
        conservative by at most ``(upper − lower) / grid``.
    population : int, optional
        N when the items are a random order of a finite benchmark of N items (sampling without
        replacement): the sequence then covers the mean of all N items and closes on it as t
        approaches N. None for draws from an infinite population.
    running_intersection : bool
        Intersect each interval with all earlier ones (valid, and never wider).

    Returns
    -------
    ConfidenceSequence
        ``lower`` and ``upper`` of shape (n,): the interval after each observation.

    Raises
    ------
    InvalidInputError
        Scores outside ``bounds`` or not finite; ``alpha`` outside (0, 1); more observations
        than ``population``.

    Notes
    -----
    Waudby-Smith & Ramdas (2024, JRSSB), §4 hedged capital process with predictable plug-in
    empirical-Bernstein bets; equal to ``confseq.betting.betting_cs(x, alpha=alpha,
    breaks=grid, N=population, running_intersection=running_intersection)`` on [0, 1] data.

    Examples
    --------
    >>> x = [1, 1, 0, 1, 1, 1, 1, 0, 1, 1] * 20
    >>> cs = betting_confidence_sequence(x, alpha=0.05)
    >>> cs.n, round(float(cs.lower[-1]), 3), round(float(cs.upper[-1]), 3)
    (200, 0.704, 0.885)
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 1:
        raise InvalidInputError(f"x must be one sequence of scores (1-D), got shape {x.shape}.")
    stream = BettingConfidenceSequence(alpha=alpha, bounds=bounds, grid=grid,
                                       population=_check_population(population, x.size),
                                       running_intersection=running_intersection)
    return stream.update(x) if x.size else stream.result()


def betting_crossing_times(x, means, *, alpha: float = 0.05, bounds: tuple[float, float] = (0.0, 1.0),
                           population: int | None = None, signed: bool = False) -> np.ndarray:
    """First look at which each stream's betting confidence sequence excludes a given mean.

    The exact (grid-free) test behind :func:`betting_confidence_sequence`: stream ``s``
    rejects the mean ``means[s]`` at the first ``t`` with ``K_t(m) > 1 / alpha``. Used for
    simulations of continuous monitoring and for racing.

    Parameters
    ----------
    x : array_like, shape (..., n)
        Streams of scores within ``bounds``, observation order along the last axis.
    means : array_like, broadcastable to shape (...)
        The mean tested in each stream (on the scale of ``bounds``).

    signed : bool
        Give the side: ``+t`` when the mean was excluded from below (the data's mean is
        larger: the capital betting on larger values crossed), ``−t`` from above.

    Returns
    -------
    ndarray of int, shape (...)
        The first look (1-based) at which the mean is excluded; 0 where it never is.

    Examples
    --------
    >>> betting_crossing_times([[1] * 30, [1, 0] * 15, [0] * 30], 0.5, signed=True).tolist()
    [10, 0, -10]
    """
    alpha = _check_alpha(alpha)
    unit = _unit(x, bounds)
    if unit.ndim == 0 or unit.shape[-1] == 0:
        raise InvalidInputError("x must hold at least one observation per stream.")
    lo, hi = (float(b) for b in bounds)
    m = (np.broadcast_to(np.asarray(means, dtype=float), unit.shape[:-1]) - lo) / (hi - lo)
    population = _check_population(population, unit.shape[-1])
    shape = unit.shape[:-1]
    flat = unit.reshape(-1, unit.shape[-1])
    targets = m.reshape(-1)
    crossing = np.zeros(flat.shape[0], dtype=int)
    threshold = math.log(1 / alpha)
    rows = max(1, _BLOCK // flat.shape[1])
    for start in range(0, flat.shape[0], rows):
        block = slice(start, min(flat.shape[0], start + rows))
        capital = _Capital((block.stop - block.start,), targets[block, None], alpha, population)
        plus, minus = (c[..., 0] for c in capital.advance(flat[block]))
        over = np.maximum(plus, minus) > threshold
        first = np.argmax(over, axis=-1)
        when = np.where(over.any(axis=-1), first + 1, 0)
        if signed:
            rows = np.arange(when.size)
            when = np.where(plus[rows, first] > threshold, when, -when)
        crossing[block] = when
    return crossing.reshape(shape)

