"""The posterior of (a, b) of the hierarchical beta-binomial model on a quadrature grid.

Computed by :func:`outperform.bayes._beta_binomial.beta_binomial_hyperposterior`; nodes in
u = log(a / b) and v = log(a + b), each with its share of the posterior mass.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy import special

from .._validation import check_random_state
from ._beta_mixture import BetaMixture, beta_regions

__all__ = ["BetaBinomialHyperposterior"]


@dataclass(frozen=True, eq=False)
class BetaBinomialHyperposterior:
    """Posterior of (a, b) of the hierarchical beta-binomial model on a quadrature grid.

    Attributes
    ----------
    u, v : ndarray
        Nodes in log(a / b) (shape (n_u,)) and log(a + b) (shape (n_v,)).
    weights : ndarray
        Posterior mass of each node (quadrature weight times density), shape (n_u, n_v),
        summing to 1: ``sum(weights * f(a, b))`` is E[f(a, b) | y].
    log_density : ndarray
        Unnormalised log posterior density in (u, v) at the nodes (for contour plots).
    y, n : ndarray
        The data (counts per task).
    mode : ndarray
        Posterior mode (u, v).
    quadrature_error : float
        Largest change of the monitored integrals at the last refinement.
    log_posterior : callable, optional
        ``log_posterior(u, v)``: the unnormalised log density at any points (for plots).
    """

    u: np.ndarray = field(repr=False)
    v: np.ndarray = field(repr=False)
    weights: np.ndarray = field(repr=False)
    log_density: np.ndarray = field(repr=False)
    y: np.ndarray
    n: np.ndarray
    mode: np.ndarray
    quadrature_error: float
    log_posterior: Callable | None = field(default=None, repr=False)

    def density_ab(self, a, b) -> np.ndarray:
        """Posterior density of (a, b) at the given points, relative to its value at the
        mode (so 1 at the mode); includes the Jacobian 1 / (a b) of (u, v) -> (a, b)."""
        a, b = np.asarray(a, float), np.asarray(b, float)
        u, v = np.log(a / b), np.log(a + b)
        top = self.log_posterior(*self.mode) - np.log(self.a_mode * self.b_mode)
        return np.exp(self.log_posterior(u, v) - np.log(a * b) - top)

    @property
    def a_mode(self) -> float:
        """a at the posterior mode of (u, v)."""
        return float(np.exp(self.mode[1]) * special.expit(self.mode[0]))

    @property
    def b_mode(self) -> float:
        """b at the posterior mode of (u, v)."""
        return float(np.exp(self.mode[1]) * special.expit(-self.mode[0]))

    @property
    def a(self) -> np.ndarray:
        """a at the nodes, shape (n_u, n_v)."""
        return np.exp(self.v[None, :] + special.log_expit(self.u[:, None]))

    @property
    def b(self) -> np.ndarray:
        """b at the nodes, shape (n_u, n_v)."""
        return np.exp(self.v[None, :] + special.log_expit(-self.u[:, None]))

    def expect(self, values) -> float:
        """E[values | y] for values given at the nodes (broadcastable to (n_u, n_v))."""
        return float(np.sum(self.weights * values))

    @property
    def mean_fraction(self) -> float:
        """E[a / (a + b) | y]: the posterior mean of the population mean, = E[phi_next]."""
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
        """Posterior mean and sd of each task's phi_j (the pooled, shrunk estimates).

        phi_j | a, b, y ~ Beta(a + y_j, b + n_j - y_j), averaged over the posterior of (a, b).
        """
        keep = self.weights > 0
        w, a, c = self.weights[keep], self.a[keep], (self.a + self.b)[keep]
        am = a[:, None] + self.y[None, :]
        cm = c[:, None] + self.n[None, :]
        mean = w @ (am / cm)
        second = w @ (am / cm * (am + 1) / (cm + 1))
        return mean, np.sqrt(np.maximum(second - mean**2, 0.0))

    def region_masses(self, rope: tuple[float, float]) -> np.ndarray:
        """P(phi < low | a, b), P(low <= phi <= high | a, b), P(phi > high | a, b) per node.

        Shape (3, n_u, n_v).
        """
        return np.moveaxis(beta_regions(self.a, self.b, rope), -1, 0)

    def predictive(self, min_weight: float = 1e-14) -> BetaMixture:
        """Predictive distribution of phi_next: Beta(a, b) mixed over the posterior.

        Nodes with weight below ``min_weight`` are dropped (together a few 1e-11 of the mass
        at most) and the rest renormalised.
        """
        keep = self.weights > min_weight
        w = self.weights[keep]
        shape = self.weights.shape
        mu = np.broadcast_to(special.expit(self.u)[:, None], shape)[keep]
        spacing = np.broadcast_to(np.gradient(self.u)[:, None], shape)[keep]
        # Kernel sd in u is about 1 / sqrt(c mu (1 - mu)); keep it >= 1.5 node spacings.
        cap = 1.0 / (mu * (1 - mu) * (1.5 * spacing) ** 2)
        return BetaMixture(a=self.a[keep], b=self.b[keep], weights=w / w.sum(),
                           smooth_concentration=cap, hyperposterior=self)

    def sample(self, n_samples: int, random_state=None) -> np.ndarray:
        """Draws of (a, b), shape (n_samples, 2): nodes by weight, jittered within cells.

        ``random_state`` defaults to None, fresh draws on each call, as ``scipy.stats``
        distributions' ``rvs`` (the package's functions default to 0)."""
        rng = check_random_state(random_state)
        flat = self.weights.ravel()
        idx = rng.choice(flat.size, size=n_samples, p=flat / flat.sum())
        iu, iv = np.unravel_index(idx, self.weights.shape)
        cu = np.concatenate([[self.u[0]], 0.5 * (self.u[1:] + self.u[:-1]), [self.u[-1]]])
        cv = np.concatenate([[self.v[0]], 0.5 * (self.v[1:] + self.v[:-1]), [self.v[-1]]])
        u = rng.uniform(cu[iu], cu[iu + 1])
        v = rng.uniform(cv[iv], cv[iv + 1])
        return np.column_stack([np.exp(v + special.log_expit(u)),
                                np.exp(v + special.log_expit(-u))])
