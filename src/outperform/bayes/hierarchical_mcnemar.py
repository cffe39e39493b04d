"""Hierarchical beta-binomial model and the hierarchical Bayesian McNemar test (Williams 2026).

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
trapezoid rule converges geometrically). The Beta cdf of a node, P(phi < x | a, b), is a step
of width ~ (a + b)^(-1/2) in u; at the points x where region probabilities are needed the u
panels break and are graded geometrically down to 1e-6, so the step is resolved whatever
a + b. The rule is refined (twice the nodes per axis) until every integral moves by less than
``tol``.

Numerics: the log-likelihood is the difference of log-gamma functions of arguments up to
e^70, which cancel catastrophically. It is rewritten as
y log mu + (n - y) log(1 - mu) + R(a, y) + R(b, n - y) - R(a + b, n) with
R(x, k) = lgamma(x + k) - lgamma(x) - k log x, computed by Stirling's series for x >= 100,
so that no large terms cancel.

The McNemar test (Williams 2026 §5.5, §6.2) applies it with y_j = n01_j (A wrong, B right)
and n_j = n01_j + n10_j, so phi_j = theta01 / (theta01 + theta10) and **phi < 0.5 favours
A** (``a_better_side = "left"``, as in :func:`outperform.bayes.mcnemar.bayesian_mcnemar`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from scipy import optimize, special

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError, as_counts,
                           check_probability)
from ..results import BayesianResult
from .mcnemar import default_phi_rope
from .rope import decide, region_probabilities

__all__ = ["BetaBinomialHyperposterior", "BetaMixture", "beta_binomial_hyperposterior",
           "hierarchical_mcnemar"]

_EDGE_DROP = 30.0          # log-density drop at which the box edge may stop (e^-30 ~ 1e-13)
_GL_ORDER = 8              # Gauss-Legendre nodes per u panel
_SMALLEST_PANEL = 1e-6     # graded panels at breakpoints go down to this width (in u)
_MAX_LEVELS = 6            # refinements (doublings) before giving up
_CDF_MAX_CONCENTRATION = 1e13  # betainc loses accuracy beyond; Beta is a step there anyway
_STIRLING_FROM = 100.0


def _stirling_tail(z):
    # lgamma(z) - [(z - 1/2) log z - z + log(2 pi) / 2]; next term < 1e-17 for z >= 100.
    z2 = z * z
    return 1.0 / (12.0 * z) - 1.0 / (360.0 * z * z2) + 1.0 / (1260.0 * z * z2 * z2)


def _log_rising_excess(x, k):
    """R(x, k) = lgamma(x + k) - lgamma(x) - k log x, without cancellation for large x."""
    x = np.asarray(x, float)
    return _sum_rising_excess(x, np.atleast_1d(np.asarray(k, float)), np.ones(np.size(k)))


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


def _beta_cdf(a, b, x, upper=False):
    """P(phi < x) (or P(phi > x) if ``upper``) for phi ~ Beta(a, b), elementwise.

    Beta(a, b) is sub-Gaussian with variance proxy 1 / (4 (a + b + 1)) (Marchal & Arbel
    2017), so P(|phi - mean| > t) <= exp(-2 (a + b + 1) t^2) < 5e-18 once
    (a + b + 1) t^2 > 20: those nodes are exactly 0 or 1 to double precision and betainc is
    skipped (it is slow, and loses accuracy beyond a + b ~ 1e15).
    """
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    c = a + b
    d = x - a / c
    out = np.where(d > 0, 1.0, 0.0)
    if upper:
        out = 1.0 - out
    near = (c + 1) * d * d <= 20.0
    scale = np.minimum(1.0, _CDF_MAX_CONCENTRATION / c[near])
    fun = special.betaincc if upper else special.betainc
    out[near] = fun(a[near] * scale, b[near] * scale, x)
    return out


def _mode(logp: _LogPosterior, y, n) -> tuple[np.ndarray, np.ndarray, float]:
    """Posterior mode in (u, v) and the Laplace standard deviations there."""
    u0 = special.logit((y.sum() + 0.5) / (n.sum() + 1.0))
    v_scan = np.linspace(-5.0, 25.0, 121)
    v0 = v_scan[np.argmax(logp(u0, v_scan))]
    fit = optimize.minimize(lambda p: -logp(p[0], p[1]), x0=[u0, v0], method="Nelder-Mead",
                            options={"xatol": 1e-9, "fatol": 1e-12, "maxiter": 4000})
    mode = fit.x
    h = 1e-3
    f = lambda du, dv: float(logp(mode[0] + du, mode[1] + dv))  # noqa: E731
    f0 = f(0, 0)
    huu = (f(h, 0) - 2 * f0 + f(-h, 0)) / h**2
    hvv = (f(0, h) - 2 * f0 + f(0, -h)) / h**2
    huv = (f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / (4 * h**2)
    hess = np.array([[huu, huv], [huv, hvv]])
    try:
        cov = np.linalg.inv(-hess)
        sd = np.sqrt(np.diag(cov))
        if not np.all(np.isfinite(sd)) or np.any(np.diag(cov) <= 0):
            raise np.linalg.LinAlgError
    except np.linalg.LinAlgError:
        sd = np.array([1.0, 1.0])
    return mode, sd, f0


def _box(logp: _LogPosterior, mode, sd, log_max) -> np.ndarray:
    """[[u_lo, u_hi], [v_lo, v_hi]] with the log density e^-30 below the mode on every edge."""
    box = np.array([[mode[0] - 6 * sd[0], mode[0] + 6 * sd[0]],
                    [mode[1] - 6 * sd[1], mode[1] + 6 * sd[1]]])
    for _ in range(200):
        moved = False
        for axis in (0, 1):
            other = np.linspace(*box[1 - axis], 257)
            for side in (0, 1):
                edge = np.full_like(other, box[axis, side])
                lp = logp(edge, other) if axis == 0 else logp(other, edge)
                lp_max = np.max(lp[np.isfinite(lp)], initial=-np.inf)
                log_max = max(log_max, lp_max)
                if lp_max > log_max - _EDGE_DROP:
                    width = box[axis, 1] - box[axis, 0]
                    box[axis, side] += (2 * side - 1) * max(0.25 * width, sd[axis])
                    moved = True
        if not moved:
            return box
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
    edges = np.unique(np.clip(edges, lo, hi))
    return edges


def _u_rule(edges):
    x, w = np.polynomial.legendre.leggauss(_GL_ORDER)
    left, right = edges[:-1, None], edges[1:, None]
    half = 0.5 * (right - left)
    nodes = (left + half * (x + 1.0)).ravel()
    weights = (half * w).ravel()
    return nodes, weights


@dataclass(frozen=True)
class BetaMixture:
    """Finite mixture of Beta distributions (the predictive distribution of phi_next).

    ``pdf``, ``cdf``, ``sf``, ``ppf``, ``mean`` and ``var`` follow the scipy frozen-distribution
    names so that :func:`outperform.bayes.rope.region_probabilities` accepts it.

    Attributes
    ----------
    a, b : ndarray
        Beta parameters of the components (1-D, same length).
    weights : ndarray
        Component weights (sum to 1).
    smooth_concentration : ndarray
        Per-component cap on a + b used by :meth:`pdf` only (see there).
    """

    a: np.ndarray
    b: np.ndarray
    weights: np.ndarray
    smooth_concentration: np.ndarray = field(repr=False)

    def mean(self) -> float:
        return float(np.sum(self.weights * self.a / (self.a + self.b)))

    def var(self) -> float:
        c = self.a + self.b
        second = np.sum(self.weights * self.a * (self.a + 1) / (c * (c + 1)))
        return float(second - self.mean() ** 2)

    def _cdf_parts(self, x):
        c = self.a + self.b
        scale = np.minimum(1.0, _CDF_MAX_CONCENTRATION / c)
        return self.a * scale, self.b * scale

    def cdf(self, x):
        """P(phi_next <= x)."""
        a, b = self._cdf_parts(x)
        x = np.asarray(x, float)
        out = special.betainc(a, b, x[..., None]) @ self.weights
        return float(out) if out.ndim == 0 else out

    def sf(self, x):
        """P(phi_next > x), accurate in the upper tail."""
        a, b = self._cdf_parts(x)
        x = np.asarray(x, float)
        out = special.betaincc(a, b, x[..., None]) @ self.weights
        return float(out) if out.ndim == 0 else out

    def pdf(self, x):
        """Density of phi_next, for display.

        Components far out in a + b are narrower than the spacing of the quadrature nodes in
        u, so their sum would be spiky; their concentration is capped at the node spacing
        (a kernel smoothing of width ~ spacing * phi (1 - phi), about 0.003 in phi). The
        integrals reported by the test never use this density.
        """
        x = np.atleast_1d(np.asarray(x, float))
        c = self.a + self.b
        scale = np.minimum(1.0, self.smooth_concentration / c)
        a, b = self.a * scale, self.b * scale
        with np.errstate(divide="ignore"):
            logpdf = special.xlog1py(b - 1, -x[:, None]) + special.xlogy(a - 1, x[:, None]) \
                - special.betaln(a, b)
        out = np.exp(logpdf) @ self.weights
        return out

    def ppf(self, q):
        """Quantile of phi_next (bisection on the cdf, to 1e-10)."""
        q = np.atleast_1d(np.asarray(q, float))
        lo, hi = np.zeros_like(q), np.ones_like(q)
        for _ in range(34):
            mid = 0.5 * (lo + hi)
            below = self.cdf(mid) < q
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
        out = 0.5 * (lo + hi)
        return out if out.size > 1 else float(out[0])


@dataclass(frozen=True)
class BetaBinomialHyperposterior:
    """Posterior of (a, b) of the hierarchical beta-binomial model on a quadrature grid.

    Attributes
    ----------
    u, v : ndarray
        Nodes in log(a / b) (shape (n_u,)) and log(a + b) (shape (n_v,)).
    weights : ndarray
        Posterior mass of each node (quadrature weight times density), shape (n_u, n_v),
        summing to 1. ``sum(weights * f(a, b))`` is E[f(a, b) | y].
    log_density : ndarray
        Unnormalised log posterior density in (u, v) at the nodes (for contour plots).
    y, n : ndarray
        The data (counts per task).
    mode : ndarray
        Posterior mode (u, v).
    quadrature_error : float
        Largest change of the monitored integrals at the last refinement.
    """

    u: np.ndarray
    v: np.ndarray
    weights: np.ndarray
    log_density: np.ndarray
    y: np.ndarray
    n: np.ndarray
    mode: np.ndarray
    quadrature_error: float

    @property
    def a(self) -> np.ndarray:
        """a at the nodes, shape (n_u, n_v)."""
        return np.exp(self.v[None, :] + special.log_expit(self.u[:, None]))

    @property
    def b(self) -> np.ndarray:
        """b at the nodes, shape (n_u, n_v)."""
        return np.exp(self.v[None, :] + special.log_expit(-self.u[:, None]))

    def expect(self, values) -> float:
        """E[values] for values given at the nodes (shape (n_u, n_v))."""
        return float(np.sum(self.weights * values))

    @property
    def mean_fraction(self) -> float:
        """E[a / (a + b) | y], the posterior mean of the population mean (= E[phi_next])."""
        return self.expect(special.expit(self.u)[:, None])

    @property
    def mean_log_concentration(self) -> float:
        """E[log(a + b) | y]."""
        return self.expect(self.v[None, :])

    @property
    def mean_log_ratio(self) -> float:
        """E[log(a / b) | y]."""
        return self.expect(self.u[:, None])

    def shrunk_means(self) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and standard deviation of each task's phi_j (pooled estimates).

        phi_j | a, b, y ~ Beta(a + y_j, b + n_j - y_j), averaged over the posterior of (a, b).
        """
        a, b = self.a, self.b
        keep = self.weights > 0
        w, a, b = self.weights[keep], a[keep], b[keep]
        c = a + b
        am = a[:, None] + self.y[None, :]
        cm = c[:, None] + self.n[None, :]
        mean = w @ (am / cm)
        second = w @ (am * (am + 1) / (cm * (cm + 1)))
        return mean, np.sqrt(np.maximum(second - mean**2, 0.0))

    def beta_cdf(self, x: float) -> np.ndarray:
        """P(phi < x | a, b) at every node (a + b capped at 1e13, where it is a step)."""
        a, b = self.a, self.b
        scale = np.minimum(1.0, _CDF_MAX_CONCENTRATION / (a + b))
        return special.betainc(a * scale, b * scale, x)

    def region_masses(self, rope: tuple[float, float]) -> np.ndarray:
        """P(phi < low | a, b), P(low <= phi <= high | a, b), P(phi > high | a, b) per node.

        Shape (3, n_u, n_v).
        """
        low, high = rope
        a, b = self.a, self.b
        scale = np.minimum(1.0, _CDF_MAX_CONCENTRATION / (a + b))
        a, b = a * scale, b * scale
        left = special.betainc(a, b, low)
        right = special.betaincc(a, b, high)
        return np.stack([left, np.clip(1.0 - left - right, 0.0, 1.0), right])

    def predictive(self, min_weight: float = 1e-13) -> BetaMixture:
        """Predictive distribution of phi_next: the Beta(a, b) mixed over the posterior.

        Nodes with weight below ``min_weight`` (together well under 1e-9 of the mass) are
        dropped and the rest renormalised.
        """
        keep = self.weights > min_weight
        w = self.weights[keep]
        mu = np.broadcast_to(special.expit(self.u)[:, None], self.weights.shape)[keep]
        spacing = np.gradient(self.u)
        spacing = np.broadcast_to(spacing[:, None], self.weights.shape)[keep]
        # Kernel sd in u, 1 / sqrt(c mu (1 - mu)), kept >= 1.5 node spacings (see pdf).
        cap = 1.0 / (mu * (1 - mu) * (1.5 * spacing) ** 2)
        return BetaMixture(a=self.a[keep], b=self.b[keep], weights=w / w.sum(),
                           smooth_concentration=cap)

    def sample(self, n_samples: int, random_state=None) -> np.ndarray:
        """Draws of (a, b) (shape (n_samples, 2)): nodes by weight, jittered within cells."""
        rng = np.random.default_rng(random_state)
        flat = self.weights.ravel()
        idx = rng.choice(flat.size, size=n_samples, p=flat / flat.sum())
        iu, iv = np.unravel_index(idx, self.weights.shape)
        cells_u = np.concatenate([[self.u[0]], 0.5 * (self.u[1:] + self.u[:-1]), [self.u[-1]]])
        cells_v = np.concatenate([[self.v[0]], 0.5 * (self.v[1:] + self.v[:-1]), [self.v[-1]]])
        u = rng.uniform(cells_u[iu], cells_u[iu + 1])
        v = rng.uniform(cells_v[iv], cells_v[iv + 1])
        return np.column_stack([np.exp(v + special.log_expit(u)),
                                np.exp(v + special.log_expit(-u))])


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


def _grid(logp, box, n_u_panels, n_v, cuts):
    u, wu = _u_rule(_u_panels(box[0, 0], box[0, 1], n_u_panels, cuts))
    v = np.linspace(box[1, 0], box[1, 1], n_v)
    wv = np.full(n_v, v[1] - v[0])
    wv[[0, -1]] *= 0.5
    lp = logp(u[:, None], v[None, :])
    w = np.exp(lp - lp.max()) * wu[:, None] * wv[None, :]
    return u, v, lp, w / w.sum()


def _monitored(post: BetaBinomialHyperposterior, cuts) -> np.ndarray:
    vals = [post.mean_fraction, post.mean_log_concentration, post.mean_log_ratio]
    vals += [post.expect(post.beta_cdf(special.expit(c))) for c in cuts]
    return np.array(vals)


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
        bounds); the grid is graded there so these integrals are accurate too.
    grid_size : int
        Initial number of nodes per axis; doubled until the integrals are stable.
    tol : float
        Stop when E[a/(a+b)], E[log(a+b)], E[log(a/b)] and the Beta cdfs at the breakpoints
        change by less than this at a doubling.

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
        No task with 0 < y_j < n_j: the posterior is improper (all tasks at 0% or 100%
        give no information on how much the phi_j vary, and the prior gives none either).

    Examples
    --------
    BDA3 §5.3 rat tumours would need the data file; a small example:

    >>> post = beta_binomial_hyperposterior([2, 5, 3, 9], [20, 21, 18, 25])
    >>> round(post.mean_fraction, 4)
    0.2179
    """
    y, n = _check_counts(y, n)
    if not np.any((y > 0) & (y < n)):
        raise DegenerateDataError(
            "the posterior of (a, b) is improper: no task has 0 < y < n (every task is all "
            "successes, all failures or empty). Under p(a, b) ∝ (a + b)^(-5/2) such data cannot "
            "tell how much the tasks vary; add tasks with mixed outcomes.")
    if grid_size < 8:
        raise InvalidInputError(f"grid_size must be at least 8, got {grid_size}.")
    cuts = [float(special.logit(check_probability(x, "breakpoint"))) for x in breakpoints]
    logp = _LogPosterior(y, n)
    mode, sd, log_max = _mode(logp, y, n)
    box = _box(logp, mode, sd, log_max)
    previous, n_nodes = None, int(grid_size)
    for _ in range(_MAX_LEVELS + 1):
        u, v, lp, w = _grid(logp, box, max(n_nodes // _GL_ORDER, 1), n_nodes, cuts)
        post = BetaBinomialHyperposterior(u=u, v=v, weights=w, log_density=lp, y=y, n=n,
                                          mode=mode, quadrature_error=np.inf)
        current = _monitored(post, cuts)
        if previous is not None:
            err = float(np.max(np.abs(current - previous)))
            if err < tol:
                return BetaBinomialHyperposterior(u=u, v=v, weights=w, log_density=lp, y=y,
                                                  n=n, mode=mode, quadrature_error=err)
        previous, n_nodes = current, 2 * n_nodes
    raise DegenerateDataError(  # pragma: no cover - has not happened on any data tried
        f"the quadrature did not settle to {tol:g} after {_MAX_LEVELS} refinements; "
        "increase grid_size.")


def hierarchical_mcnemar(n01, n10, *, names: Sequence[str] | None = None,
                         threshold: float = 0.95, grid_size: int = 64,
                         n_samples: int = 10_000, random_state=None) -> BayesianResult:
    """Hierarchical Bayesian McNemar test over several tasks (Williams 2026 §5.5, §6.2).

    Per task j, phi_j = theta01 / (theta01 + theta10) with n01_j ~ Binomial(n01_j + n10_j,
    phi_j); phi_j ~ Beta(a, b); p(a, b) ∝ (a + b)^(-5/2). The quantity of interest is phi_next,
    the phi of a new task from the same population: p(phi_next | D) = ∫ Beta(phi_next; a, b)
    p(a, b | D) da db (Williams eq. 10). Computed by deterministic quadrature
    (:func:`beta_binomial_hyperposterior`), not by sampling.

    Sign convention: ``n01`` = A wrong and B right, ``n10`` = A right and B wrong (as in
    :mod:`outperform.stats.mcnemar`), so **phi < 0.5 favours A**: ``p_left`` is P(A
    practically better) and ``a_better_side = "left"``.

    Parameters
    ----------
    n01, n10 : array_like of int, shape (q,)
        Discordant counts per task.
    names : sequence of str, optional
        Task names (for ``details["tasks"]``).
    threshold : float
        Decision threshold of Williams (2026) §5.2.
    grid_size : int
        Initial nodes per axis of the quadrature (refined until stable to 1e-8).
    n_samples : int
        Number of (a, b) and phi_next draws kept in ``details["ab_samples"]`` and
        ``samples`` for plots (0 for none); they do not enter any reported number.
    random_state : int or numpy Generator, optional
        Seed of those draws only.

    Returns
    -------
    BayesianResult
        ``p_left``, ``p_rope``, ``p_right``: the predictive probabilities of the regions of
        phi_next, i.e. the Beta(a, b) region masses averaged over the posterior (Williams
        2026 footnote 15). ROPE [0.5 - 0.1 s, 0.5 + 0.1 s], s = sqrt(phi_bar (1 - phi_bar))
        (Williams eq. 7). ``posterior_mean`` = phi_bar = E[a / (a + b) | D] (eq. 12);
        ``posterior`` is the predictive :class:`BetaMixture`; ``credible_interval_95`` is its
        central 95% interval. ``details``:

        - ``p_regions_argmax``: the alternative of Benavoli et al. (2017 §4.3.2): the posterior
          mass of (a, b) where each region is the most probable one (on the grid: mass of
          the nodes; accurate to the grid resolution, ~1e-4);
        - ``mean_fraction`` (E[a/(a+b)]), ``mean_log_concentration`` (E[log(a+b)]),
          ``mean_log_ratio``, ``mode_log_ratio`` and ``mode_log_concentration``;
        - ``tasks``, ``raw_phi`` (n01 / (n01 + n10)), ``shrunk_phi`` and ``shrunk_phi_sd``
          (posterior mean and sd of each phi_j);
        - ``hyperposterior``: the :class:`BetaBinomialHyperposterior` (grid, weights, for
          plots); ``ab_samples``: (n_samples, 2) draws of (a, b);
        - ``quadrature_error``.

    Raises
    ------
    InvalidInputError
        Bad counts or mismatched lengths.
    TooFewError
        No task.
    DegenerateDataError
        No task with 0 < n01 < n01 + n10: the posterior of (a, b) is improper.

    References
    ----------
    Williams (2026) §5.5 eqs. 10-12, §6.2 and footnote 15; Gelman et al. (2013) BDA3 §5.3;
    Benavoli, Corani, Demšar & Zaffalon (2017) §4.3.2.

    Examples
    --------
    Williams (2026) Table 1, A = GNN, B = LLM (n01: GNN wrong and LLM right):

    >>> n01 = [63, 159, 175, 180, 202, 185, 195, 156, 64, 113, 44]
    >>> n10 = [66, 198, 149, 167, 167, 193, 176, 133, 30, 103, 46]
    >>> res = hierarchical_mcnemar(n01, n10, n_samples=0)
    >>> round(res.posterior_mean, 3)
    0.521
    >>> [round(p, 3) for p in (res.p_a_better, res.p_equivalent, res.p_b_better)]
    [0.053, 0.736, 0.212]
    >>> res.decision
    'undecided'
    """
    n01, total = _check_counts(n01, np.asarray(n01) + np.asarray(n10), ("n01", "n01 + n10"))
    n10 = total - n01
    check_probability(threshold, "threshold")
    if names is not None:
        names = [str(s) for s in names]
        if len(names) != n01.size:
            raise InvalidInputError(f"names has {len(names)} entries for {n01.size} tasks.")
    if not np.any((n01 > 0) & (n10 > 0)):
        raise DegenerateDataError(
            "the hierarchical McNemar posterior is improper: no task has both n01 > 0 and "
            "n10 > 0 (0 < n01 < n01 + n10). When every task is won outright by one model "
            "(or has no discordant pairs) the model cannot tell how much phi varies across "
            "tasks; use the per-task Bayesian McNemar test or add tasks.")
    first = beta_binomial_hyperposterior(n01, total, grid_size=grid_size)
    rope = default_phi_rope(first.mean_fraction)
    post = beta_binomial_hyperposterior(n01, total, breakpoints=rope, grid_size=grid_size)
    phi_bar = post.mean_fraction
    masses = post.region_masses(rope)
    p_left, p_rope, p_right = (float(np.sum(post.weights * m)) for m in masses)
    winner = np.argmax(masses, axis=0)
    argmax = tuple(float(post.weights[winner == k].sum()) for k in range(3))
    predictive = post.predictive()
    ci = predictive.ppf([0.025, 0.975])
    shrunk, shrunk_sd = post.shrunk_means()
    with np.errstate(invalid="ignore", divide="ignore"):
        raw = np.where(total > 0, n01 / np.maximum(total, 1), np.nan)
    details = {
        "tasks": names if names is not None else [str(j) for j in range(n01.size)],
        "n01": n01, "n10": n10, "raw_phi": raw, "shrunk_phi": shrunk,
        "shrunk_phi_sd": shrunk_sd, "p_regions_averaged": (p_left, p_rope, p_right),
        "p_regions_argmax": argmax, "mean_fraction": phi_bar,
        "mean_log_concentration": post.mean_log_concentration,
        "mean_log_ratio": post.mean_log_ratio,
        "mode_log_ratio": float(post.mode[0]), "mode_log_concentration": float(post.mode[1]),
        "quadrature_error": post.quadrature_error, "rope_rule": "Williams 2026 eq. 7",
        "hyperposterior": post,
    }
    samples = None
    if n_samples:
        rng = np.random.default_rng(random_state)
        ab = post.sample(int(n_samples), rng)
        samples = rng.beta(ab[:, 0], ab[:, 1])
        details["ab_samples"] = ab
    p_check = region_probabilities(predictive, rope)  # same numbers, from the mixture
    assert np.allclose(p_check, (p_left, p_rope, p_right), atol=1e-6), p_check
    return BayesianResult(
        method="hierarchical Bayesian McNemar test (beta-binomial, Williams 2026 §5.5)",
        parameter="phi_next = theta01 / (theta01 + theta10) on a new task (A's share of "
                  "discordant errors)",
        p_left=p_left, p_rope=p_rope, p_right=p_right, rope=rope, a_better_side="left",
        threshold=threshold, decision=decide(p_left, p_rope, p_right, threshold),
        posterior_mean=phi_bar, credible_interval_95=(float(ci[0]), float(ci[1])),
        details=details, posterior=predictive, samples=samples)
