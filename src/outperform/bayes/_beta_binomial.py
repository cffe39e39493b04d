"""Hierarchical beta-binomial model: the posterior of (a, b) by quadrature (Williams 2026 §5.5).

Model (Williams 2026 §5.5; Gelman et al. BDA3 §5.3): task j has y_j "successes" out of n_j,
y_j ~ Binomial(n_j, phi_j), phi_j ~ Beta(a, b), and the hyperprior p(a, b) ∝ (a + b)^(-5/2)
(uniform on (a / (a + b), (a + b)^(-1/2))). The phi_j integrate out in closed form:

    p(a, b | y) ∝ (a + b)^(-5/2) * prod_j B(a + y_j, b + n_j - y_j) / B(a, b).

In u = log(a / b), v = log(a + b) the density gains the Jacobian a b, so

    log p(u, v | y) = -v / 2 + log mu + log(1 - mu) + sum_j log-likelihood_j,  mu = expit(u).

It is proper if and only if at least one task has 0 < y_j < n_j: each such task makes the
density vanish like e^v as v -> -inf, while the prior term grows like e^(-v/2).

Computation: deterministic quadrature, no sampling. The mode is found by optimisation, the
box around it is widened until the log density on every edge is 30 below the mode (the mass
left out is then below ~1e-12), and the box is integrated with a tensor rule: Gauss-Legendre
panels in u, the trapezoid rule in v (the density decays smoothly at both ends, where the
trapezoid rule converges geometrically); only panels within e^-40 of the mode are evaluated
(the posterior is a curved ridge that fills little of the box). The Beta cdf of a node,
P(phi < x | a, b), is a step of width ~ (a + b)^(-1/2) in u; at the points x where region
probabilities are needed the u panels break and are graded geometrically down to 1e-4, so
the step is resolved for a + b up to ~1e8 and, beyond, its symmetric blur integrates out
(error O(width^2)). The starting steps come from the smallest conditional posterior sd over
the box; the grid is refined until doubling the u panels or halving the v nodes moves every
monitored integral by less than ``tol`` (1e-8).

Numerics: the log-likelihood is the difference of log-gamma functions of arguments up to
e^70, which cancel catastrophically. It is rewritten as
y log mu + (n - y) log(1 - mu) + R(a, y) + R(b, n - y) - R(a + b, n) with
R(x, k) = lgamma(x + k) - lgamma(x) - k log x, computed by Stirling's series for x >= 100,
so that no large terms cancel.

The hierarchical McNemar test (:mod:`._hierarchical_mcnemar`) is this model with
y_j = n01_j and n_j = n01_j + n10_j.
"""
from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np
from scipy import optimize, special

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError, as_counts,
                           check_probability)
from ._beta_binomial_grid import BetaBinomialHyperposterior
from ._beta_mixture import beta_tail

__all__ = ["BetaBinomialHyperposterior", "beta_binomial_hyperposterior"]

_EDGE_DROP = 30.0          # log-density drop at which the box edge may stop (e^-30 ~ 1e-13)
_GL_ORDER = 8              # Gauss-Legendre nodes per u panel
_SMALLEST_PANEL = 1e-4     # graded panels at breakpoints go down to this width (in u)
_MAX_LEVELS = 6            # refinements (doublings) before giving up
_STIRLING_FROM = 100.0


def _stirling_tail(z):
    # lgamma(z) - [(z - 1/2) log z - z + log(2 pi) / 2]; next term < 1e-17 for z >= 100.
    z2 = z * z
    return 1.0 / (12.0 * z) - 1.0 / (360.0 * z * z2) + 1.0 / (1260.0 * z * z2 * z2)


def _sum_rising_excess(x, ks, mult):
    """sum_i mult_i R(x, ks_i) for an array x and a few distinct counts ks_i."""
    x = np.asarray(x, float)
    big = x >= _STIRLING_FROM
    xb, xs = x[big], x[~big]
    tail_b, lgam_s, log_s = _stirling_tail(xb), special.gammaln(xs), np.log(xs)
    acc_b, acc_s = np.zeros(xb.shape), np.zeros(xs.shape)
    for k, m in zip(ks, mult):
        if k == 0:
            continue
        acc_b += m * ((xb + k - 0.5) * np.log1p(k / xb) - k + _stirling_tail(xb + k) - tail_b)
        acc_s += m * (special.gammaln(xs + k) - lgam_s - k * log_s)
    out = np.empty(x.shape)
    out[big], out[~big] = acc_b, acc_s
    return out


class _LogPosterior:
    """log p(u, v | y) up to a constant, grouping tasks with equal counts."""

    def __init__(self, y: np.ndarray, n: np.ndarray):
        self.sum_y = float(y.sum())
        self.sum_rest = float((n - y).sum())
        # R(a, y_j) summed over tasks only depends on the distinct values of y_j, etc.
        self.y_vals, self.y_mult = np.unique(y, return_counts=True)
        self.r_vals, self.r_mult = np.unique(n - y, return_counts=True)
        self.n_vals, self.n_mult = np.unique(n, return_counts=True)

    def __call__(self, u, v):
        u, v = np.broadcast_arrays(np.asarray(u, float), np.asarray(v, float))
        log_mu, log_1mu = special.log_expit(u), special.log_expit(-u)
        c = np.exp(v)
        a, b = c * np.exp(log_mu), c * np.exp(log_1mu)
        return (-0.5 * v + (1.0 + self.sum_y) * log_mu + (1.0 + self.sum_rest) * log_1mu
                + _sum_rising_excess(a, self.y_vals, self.y_mult)
                + _sum_rising_excess(b, self.r_vals, self.r_mult)
                - _sum_rising_excess(c, self.n_vals, self.n_mult))


def _mode(logp: _LogPosterior, y, n) -> tuple[np.ndarray, float]:
    """Posterior mode in (u, v) and the log density there."""
    u0 = special.logit((y.sum() + 0.5) / (n.sum() + 1.0))
    v_scan = np.linspace(-5.0, 25.0, 121)
    v0 = v_scan[np.argmax(logp(u0, v_scan))]
    fit = optimize.minimize(lambda p: -logp(p[0], p[1]), x0=[u0, v0], method="BFGS",
                            options={"gtol": 1e-7})
    return fit.x, float(logp(*fit.x))


def _conditional_sd(logp, box, axis, log_max) -> float:
    """Smallest conditional sd along ``axis`` over lines across the box.

    Along 17 lines at fixed values of the other coordinate (those carrying mass), the
    curvature at the line's maximum gives a local sd; the starting quadrature step is set
    from the smallest, so that the narrowest part of the posterior is resolved.
    """
    along = np.linspace(*box[axis], 1025)
    across = np.linspace(*box[1 - axis], 17)
    grid = (along[:, None], across[None, :]) if axis == 0 else (across[None, :], along[:, None])
    lp = logp(*grid)
    top = np.argmax(lp, axis=0)
    keep = lp[top, np.arange(across.size)] > log_max - _EDGE_DROP
    best, other = along[top][keep], across[keep]
    h = 1e-3 * (box[axis, 1] - box[axis, 0])
    vals = []
    for step in (-h, 0.0, h):
        pts = (best + step, other) if axis == 0 else (other, best + step)
        vals.append(logp(*pts))
    curv = (vals[0] - 2 * vals[1] + vals[2]) / h**2
    sd = 1.0 / np.sqrt(-curv[curv < 0])
    return float(sd.min()) if sd.size else 0.1


def _box(logp: _LogPosterior, mode, log_max) -> tuple[np.ndarray, np.ndarray]:
    """Box [[u_lo, u_hi], [v_lo, v_hi]] whose edges are e^-30 below the mode; min sds."""
    box = np.array([[mode[0] - 1.0, mode[0] + 1.0], [mode[1] - 1.0, mode[1] + 1.0]])
    step = np.array([0.5, 0.5])
    for _ in range(400):
        moved = False
        for axis in (0, 1):
            other = np.linspace(*box[1 - axis], 257)
            for side in (0, 1):
                edge = np.full_like(other, box[axis, side])
                lp = logp(edge, other) if axis == 0 else logp(other, edge)
                lp_max = np.max(lp[np.isfinite(lp)], initial=-np.inf)
                log_max = max(log_max, lp_max)
                if lp_max > log_max - _EDGE_DROP:
                    box[axis, side] += (2 * side - 1) * step[axis]
                    step[axis] *= 1.25
                    moved = True
        if not moved:
            sds = np.array([_conditional_sd(logp, box, axis, log_max) for axis in (0, 1)])
            return box, sds
    raise DegenerateDataError(  # pragma: no cover - a proper posterior always fits in a box
        "could not bound the posterior of (a, b); it may be improper for these counts.")


def _u_panels(lo, hi, n_panels, cuts):
    """Panel edges: uniform, broken at the cuts and graded geometrically towards them."""
    edges = list(np.linspace(lo, hi, n_panels + 1))
    width = (hi - lo) / n_panels
    for c in cuts:
        if lo < c < hi:
            d = width
            while d > _SMALLEST_PANEL:
                d /= 4.0
                edges += [c - d, c + d]
            edges.append(c)
    return np.unique(np.clip(edges, lo, hi))


def _u_rule(edges):
    x, w = np.polynomial.legendre.leggauss(_GL_ORDER)
    left, right = edges[:-1, None], edges[1:, None]
    half = 0.5 * (right - left)
    return (left + half * (x + 1.0)).ravel(), (half * w).ravel()


def _check_counts(y, n, names=("y", "n")) -> tuple[np.ndarray, np.ndarray]:
    y = as_counts(y, names[0])
    n = as_counts(n, names[1])
    if y.ndim != 1 or n.ndim != 1:
        raise InvalidInputError(f"{names[0]} and {names[1]} must be 1-D (one count per task).")
    if y.shape != n.shape:
        raise InvalidInputError(
            f"{names[0]} and {names[1]} must have one entry per task, got lengths "
            f"{y.size} and {n.size}.")
    if y.size == 0:
        raise TooFewError("no tasks given; the hierarchical model needs at least one task.")
    if np.any(y > n):
        j = int(np.argmax(y > n))
        raise InvalidInputError(
            f"{names[0]} cannot exceed {names[1]}: task {j} has {y[j]} out of {n[j]}.")
    return y, n


class _Quadrature:
    """The box and the starting resolution, shared by successive integrations."""

    def __init__(self, y, n, grid_size):
        self.y, self.n = y, n
        self.logp = _LogPosterior(y, n)
        self.mode, self.log_max = _mode(self.logp, y, n)
        self.box, sds = _box(self.logp, self.mode, self.log_max)
        width = self.box[:, 1] - self.box[:, 0]
        # Start: GL panels 6 sds wide in u (compared with 3 sds), trapezoid step 0.6 sd in
        # v (compared with 1.2 sd); sds are the smallest conditional ones over the box.
        self.n_panels = max(int(np.ceil(width[0] / (6 * sds[0]))), grid_size // _GL_ORDER, 1)
        self.n_v = max(int(np.ceil(width[1] / (0.6 * sds[1]))) + 1, grid_size) | 1  # odd

    def integrate(self, n_panels, n_v, cuts) -> BetaBinomialHyperposterior:
        edges = _u_panels(self.box[0, 0], self.box[0, 1], n_panels, cuts)
        u, wu = _u_rule(edges)
        v = np.linspace(self.box[1, 0], self.box[1, 1], n_v)
        wv = np.full(n_v, v[1] - v[0])
        wv[[0, -1]] *= 0.5
        # Most of the box carries no mass (the posterior is a curved ridge): the density is
        # computed only in panels whose centre, or a neighbour's, is within e^-40 of the top.
        centres = 0.5 * (edges[1:] + edges[:-1])
        lp_c = self.logp(centres[:, None], v[None, :])
        live = lp_c > max(self.log_max, lp_c.max()) - 40.0
        live[1:] |= live[:-1].copy()
        live[:-1] |= live[1:].copy()
        live[:, 1:] |= live[:, :-1].copy()
        live[:, :-1] |= live[:, 1:].copy()
        live = np.repeat(live, _GL_ORDER, axis=0)
        lp = np.full(live.shape, -np.inf)
        uu, vv = np.broadcast_arrays(u[:, None], v[None, :])
        lp[live] = self.logp(uu[live], vv[live])
        w = np.exp(lp - lp.max()) * wu[:, None] * wv[None, :]
        return BetaBinomialHyperposterior(u=u, v=v, weights=w / w.sum(), log_density=lp,
                                          y=self.y, n=self.n, mode=self.mode,
                                          quadrature_error=np.inf, log_posterior=self.logp)

    @staticmethod
    def _monitored(post, cuts) -> tuple[np.ndarray, np.ndarray]:
        """The monitored integrals with the trapezoid rule on all v nodes and on every other
        one (a free, nested error check in v)."""
        live = post.weights > 0
        uu, vv = np.broadcast_arrays(post.u[:, None], post.v[None, :])
        u, v = uu[live], vv[live]
        a, b = np.exp(v + special.log_expit(u)), np.exp(v + special.log_expit(-u))
        values = np.stack([special.expit(u), v, u]
                          + [beta_tail(a, b, float(special.expit(c))) for c in cuts])
        half = np.zeros_like(post.weights)
        half[:, ::2] = post.weights[:, ::2]
        half[:, [0, -1]] *= 0.5
        half = half[live] / half.sum()
        return values @ post.weights[live], values @ half

    def refine(self, cuts, tol) -> BetaBinomialHyperposterior:
        """Refine until doubling the u panels, or halving the v nodes, moves nothing by tol.

        The v check is free (the trapezoid rule on every other node); the u check compares
        with half as many panels, so the answer is the finer of the two grids.
        """
        n_panels, n_v = self.n_panels, self.n_v
        coarse = self._monitored(self.integrate(n_panels, n_v, cuts), cuts)[0]
        for _ in range(_MAX_LEVELS):
            post = self.integrate(2 * n_panels, n_v, cuts)
            fine, half_v = self._monitored(post, cuts)
            err_u = float(np.max(np.abs(fine - coarse)))
            err_v = float(np.max(np.abs(fine - half_v)))
            if max(err_u, err_v) < tol:
                return dataclasses.replace(post, quadrature_error=max(err_u, err_v))
            if err_v >= tol:
                n_v = 2 * n_v - 1
            if err_u >= tol:
                n_panels *= 2
            coarse = self._monitored(self.integrate(n_panels, n_v, cuts), cuts)[0]
        raise DegenerateDataError(  # pragma: no cover - has not happened on any data tried
            f"the quadrature did not settle to {tol:g} after {_MAX_LEVELS} refinements.")


def _proper_or_raise(y, n, what):
    if not np.any((y > 0) & (y < n)):
        raise DegenerateDataError(what)


def beta_binomial_hyperposterior(y, n, *, breakpoints: Sequence[float] = (),
                                 grid_size: int = 64, tol: float = 1e-8
                                 ) -> BetaBinomialHyperposterior:
    """Posterior of (a, b) in the hierarchical beta-binomial model, by adaptive quadrature.

    y_j ~ Binomial(n_j, phi_j), phi_j ~ Beta(a, b), p(a, b) ∝ (a + b)^(-5/2)
    (Gelman et al. BDA3 §5.3; Williams 2026 §5.5). See the module docstring for the method.

    Parameters
    ----------
    y, n : array_like of int, shape (q,)
        Successes and trials per task (0 <= y_j <= n_j; tasks with n_j = 0 carry no
        information but are allowed).
    breakpoints : sequence of float in (0, 1)
        Values x of phi at which Beta cdfs P(phi < x | a, b) will be integrated (ROPE
        bounds); the grid is graded there so that these integrals are accurate too.
    grid_size : int
        Minimum number of nodes per axis at the start (the start is otherwise set from the
        posterior's curvature); each axis is then doubled until the integrals are stable.
    tol : float
        Stop when E[a/(a+b)], E[log(a+b)], E[log(a/b)] and the Beta cdfs at the breakpoints
        change by less than ``tol`` when either axis is refined.

    Returns
    -------
    BetaBinomialHyperposterior

    Raises
    ------
    InvalidInputError
        Negative, non-integer or non-finite counts, y_j > n_j, mismatched lengths.
    TooFewError
        No tasks.
    DegenerateDataError
        No task with 0 < y_j < n_j: the posterior is improper (tasks at 0% or 100% cannot
        tell how much the phi_j vary, and the prior does not either).

    Examples
    --------
    >>> post = beta_binomial_hyperposterior([2, 5, 3, 9], [20, 21, 18, 25])
    >>> round(post.mean_fraction, 4), round(post.mean_log_concentration, 3)
    (0.2575, 3.173)
    """
    y, n = _check_counts(y, n)
    _proper_or_raise(y, n, (
        "the posterior of (a, b) is improper: no task has 0 < y < n (every task is all "
        "successes, all failures or empty). Under p(a, b) ∝ (a + b)^(-5/2) such data cannot "
        "tell how much the tasks vary; add tasks with mixed outcomes."))
    if int(grid_size) < 8:
        raise InvalidInputError(f"grid_size must be at least 8, got {grid_size!r}.")
    cuts = [float(special.logit(check_probability(x, "breakpoint"))) for x in breakpoints]
    return _Quadrature(y, n, int(grid_size)).refine(cuts, tol)
