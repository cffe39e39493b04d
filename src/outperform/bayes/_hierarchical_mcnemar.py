"""The hierarchical Bayesian McNemar test over several tasks (Williams 2026 §5.5, §6.2).

The test applies the hierarchical beta-binomial model with y_j = n01_j (A wrong, B right)
and n_j = n01_j + n10_j, so phi_j = theta01 / (theta01 + theta10) and **phi < 0.5 favours
A** (``a_better_side = "left"``, as in :func:`outperform.bayes._mcnemar.bayesian_mcnemar`).

The posterior of the hierarchical beta-binomial model behind it is computed by deterministic
quadrature in :mod:`._beta_binomial`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy import special

from .._validation import (InvalidInputError, as_counts, check_choice, check_threshold,
                           check_random_state)
from ..results import BayesianResult
from ._beta_binomial import _check_counts, _proper_or_raise, _Quadrature
from ._mcnemar import default_phi_rope
from ._rope import decide

__all__ = ["hierarchical_mcnemar"]


def hierarchical_mcnemar(n01, n10, *, names: Sequence[str] | None = None,
                         threshold: float = 0.95, region_rule: str = "averaged",
                         grid_size: int = 64, n_samples: int = 10_000,
                         random_state=0) -> BayesianResult:
    """Hierarchical Bayesian McNemar test over several tasks (Williams 2026 §5.5, §6.2).

    Per task j, phi_j = theta01 / (theta01 + theta10) and n01_j ~ Binomial(n01_j + n10_j,
    phi_j); phi_j ~ Beta(a, b); p(a, b) ∝ (a + b)^(-5/2). The quantity of interest is phi_next,
    the phi of a new task from the same population: p(phi_next | D) = ∫ Beta(phi_next; a, b)
    p(a, b | D) da db (Williams eq. 10), computed by deterministic quadrature
    (:func:`beta_binomial_hyperposterior`) instead of sampling.

    Sign convention: ``n01`` = A wrong and B right, ``n10`` = A right and B wrong (as in
    :mod:`outperform.stats._mcnemar`), so **phi < 0.5 favours A**: ``p_left`` is P(A
    practically better) and ``a_better_side = "left"``.

    Parameters
    ----------
    n01, n10 : array_like of int, shape (q,)
        Discordant counts per task.
    names : sequence of str, optional
        Task names (for ``details["tasks"]``).
    threshold : float
        Decision threshold of Williams (2026) §5.2.
    region_rule : {"averaged", "argmax"}
        Which probabilities go into ``p_left``, ``p_rope``, ``p_right`` (both are always in
        ``details``): "averaged" (default, Williams 2026 footnote 15), the predictive
        probabilities of the regions for phi_next; "argmax" (Benavoli et al. 2017 §4.3.2),
        the posterior mass of the (a, b) for which each region is the most probable one.
    grid_size : int
        Minimum starting nodes per axis of the quadrature (refined until stable to 1e-8).
    n_samples : int
        Number of phi_next draws kept in ``samples``, for plots and checks (0 for none); no
        reported number uses them. Draws of (a, b): ``posterior.hyperposterior.sample``.
    random_state : int or numpy.random.Generator, optional
        Seed of those draws only.

    Returns
    -------
    BayesianResult
        ``p_left``, ``p_rope``, ``p_right``: by ``region_rule``, by default the predictive
        probabilities of the regions of phi_next, i.e. the Beta(a, b) region masses averaged
        over the posterior (Williams 2026 footnote 15); ROPE [0.5 - 0.1 s, 0.5 + 0.1 s] with
        s = sqrt(phi_bar (1 - phi_bar)) (Williams eq. 7).
        ``posterior_mean`` = phi_bar = E[a / (a + b) | D] (eq. 12);
        ``posterior`` is the predictive :class:`BetaMixture`, whose ``hyperposterior`` is the
        :class:`BetaBinomialHyperposterior` (grid and weights, for plots);
        ``credible_interval_95`` is its central 95% interval. ``details`` holds:

        - ``p_regions_averaged`` and ``p_regions_argmax`` (the latter, Benavoli et al.'s
          rule, is the mass of the grid nodes where each region is the most probable one;
          the region borders cut through cells, so it is accurate to ~1e-3 only);
          ``region_rule``;
        - ``mean_fraction`` (E[a/(a+b)]), ``mean_log_concentration`` (E[log(a+b)]),
          ``mean_log_ratio`` (E[log(a/b)]), ``mode_log_ratio``, ``mode_log_concentration``;
        - ``tasks``, ``n01``, ``n10``, ``raw_phi`` (n01 / (n01 + n10)), ``shrunk_phi`` and
          ``shrunk_phi_sd`` (posterior mean and sd of each phi_j);
        - ``quadrature_error``: the largest change of the monitored integrals at the last
          refinement (below 1e-8).

    Raises
    ------
    InvalidInputError
        Negative or non-integer counts, mismatched lengths, bad threshold or names.
    TooFewError
        No task.
    DegenerateDataError
        No task with 0 < n01 < n01 + n10: the posterior of (a, b) is improper.

    References
    ----------
    Williams (2026) §5.5 eqs. 10-12, §6.2, footnote 15; Gelman et al. (2013) BDA3 §5.3;
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
    [0.052, 0.736, 0.212]
    >>> res.decision
    'undecided'
    """
    n01 = as_counts(n01, "n01")
    n10 = as_counts(n10, "n10")
    if n01.shape != n10.shape:
        raise InvalidInputError(
            f"n01 and n10 must have one entry per task, got shapes {n01.shape} and {n10.shape}.")
    y, n = _check_counts(n01, n01 + n10, ("n01", "n01 + n10"))
    check_threshold(threshold)
    check_choice(region_rule, "region_rule", ("averaged", "argmax"))
    if names is not None:
        names = [str(s) for s in names]
        if len(names) != y.size:
            raise InvalidInputError(f"names has {len(names)} entries for {y.size} tasks.")
    _proper_or_raise(y, n, (
        "the hierarchical McNemar posterior is improper: no task has both n01 > 0 and "
        "n10 > 0 (0 < n01 < n01 + n10). When every task is won outright by one model, or has "
        "no discordant pairs, the model cannot tell how much phi varies across tasks; use "
        "the per-task Bayesian McNemar test or add tasks."))
    if int(grid_size) < 8:
        raise InvalidInputError(f"grid_size must be at least 8, got {grid_size!r}.")
    quad = _Quadrature(y, n, int(grid_size))
    # The ROPE needs phi_bar; the refined grid below checks phi_bar again to 1e-8.
    rope = default_phi_rope(quad.integrate(quad.n_panels, quad.n_v, []).mean_fraction)
    post = quad.refine([float(special.logit(r)) for r in rope], 1e-8)
    masses = post.region_masses(rope)
    averaged = tuple(float(np.sum(post.weights * m)) for m in masses)
    winner = np.argmax(masses, axis=0)
    argmax = tuple(float(post.weights[winner == k].sum()) for k in range(3))
    p_left, p_rope, p_right = averaged if region_rule == "averaged" else argmax
    predictive = post.predictive()
    ci = predictive.ppf([0.025, 0.975])
    shrunk, shrunk_sd = post.shrunk_means()
    raw = np.full(y.size, np.nan)
    raw[n > 0] = y[n > 0] / n[n > 0]
    details = {
        "tasks": names if names is not None else [str(j) for j in range(y.size)],
        "n01": y, "n10": n - y, "raw_phi": raw, "shrunk_phi": shrunk,
        "shrunk_phi_sd": shrunk_sd, "p_regions_averaged": averaged,
        "p_regions_argmax": argmax, "region_rule": region_rule,
        "mean_fraction": post.mean_fraction,
        "mean_log_concentration": post.mean_log_concentration,
        "mean_log_ratio": post.mean_log_ratio,
        "mode_log_ratio": float(post.mode[0]), "mode_log_concentration": float(post.mode[1]),
        "quadrature_error": post.quadrature_error, "rope_rule": "Williams 2026 eq. 7",
    }
    samples = None
    if n_samples:
        rng = check_random_state(random_state)
        ab = post.sample(int(n_samples), rng)
        samples = rng.beta(ab[:, 0], ab[:, 1])
    return BayesianResult(
        method="hierarchical Bayesian McNemar test (beta-binomial, Williams 2026 §5.5)",
        parameter="phi_next = theta01 / (theta01 + theta10) on a new task (A's share of the "
                  "discordant errors)",
        p_left=p_left, p_rope=p_rope, p_right=p_right, rope=rope, a_better_side="left",
        threshold=threshold, decision=decide(p_left, p_rope, p_right, a_better_side="left",
                                             threshold=threshold),
        posterior_mean=post.mean_fraction, credible_interval_95=(float(ci[0]), float(ci[1])),
        details=details, posterior=predictive, samples=samples)
