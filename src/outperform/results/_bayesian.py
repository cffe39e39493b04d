"""Result of a Bayesian comparison with a region of practical equivalence (ROPE)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

import numpy as np

from ._base import Result, detail
from ._serialize import jsonable

DECISIONS = ("A better", "B better", "practically equivalent", "undecided")


@dataclass(frozen=True, repr=False)
class BayesianResult(Result):
    """Posterior probabilities of three regions of a parameter, and the resulting decision.

    The parameter axis (``parameter``) is split by the ROPE ``rope = (low, high)`` into
    *left* (below ``low``), *rope* and *right* (above ``high``). ``a_better_side`` says which
    side means "A better"; ``p_a_better`` and ``p_b_better`` read it for you.

    Attributes
    ----------
    method : str
    parameter : str
        What the posterior is over, e.g. ``"mean difference A - B"`` or ``"phi = theta01 /
        (theta01 + theta10)"``.
    p_left, p_rope, p_right : float
        Posterior probabilities of the three regions. They sum to 1, except for the Poisson
        test, whose three "on a majority of data sets" probabilities leave the remainder
        ``details["p_no_majority"]``.
    rope : tuple of float
    a_better_side : {"left", "right"}
    threshold : float
        Decision threshold theta of Williams (2026) §5.2.
    decision : str
        One of ``"A better"``, ``"B better"``, ``"practically equivalent"``, ``"undecided"``.
    posterior_mean : float
    credible_interval_95 : tuple of float
        Central 95% credible interval of the parameter.
    posterior : scipy frozen distribution, optional
        Closed-form posterior of the parameter, when there is one.
    samples : ndarray, optional
        Posterior samples (of the parameter, or of the region probabilities for the
        Dirichlet-process tests: shape (n_samples, 3)).
    mc_standard_error : float, optional
        Monte Carlo standard error of the largest region probability, for sampled results.
    details : mapping
    """

    method: str
    parameter: str
    p_left: float
    p_rope: float
    p_right: float
    rope: tuple[float, float]
    a_better_side: Literal["left", "right"]
    threshold: float
    decision: str
    posterior_mean: float = float("nan")
    credible_interval_95: tuple[float, float] = (float("nan"), float("nan"))
    mc_standard_error: float | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    posterior: Any = field(default=None, repr=False, compare=False)
    samples: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def p_a_better(self) -> float:
        """Posterior probability that A is practically better than B."""
        return self.p_right if self.a_better_side == "right" else self.p_left

    @property
    def p_b_better(self) -> float:
        """Posterior probability that B is practically better than A."""
        return self.p_left if self.a_better_side == "right" else self.p_right

    @property
    def p_equivalent(self) -> float:
        """Posterior probability of practical equivalence (the ROPE)."""
        return self.p_rope

    def credible_interval(self, level: float = 0.95) -> tuple[float, float]:
        """Central credible interval of the parameter at ``level`` (0 < level < 1).

        From the closed-form ``posterior`` when the test has one (its ``interval`` method, as
        scipy's frozen distributions), else from the posterior ``samples`` (quantiles).

        Raises
        ------
        ValueError
            ``level`` outside (0, 1).
        NotImplementedError
            The result keeps neither a posterior nor samples.
        """
        if not 0 < level < 1:
            raise ValueError(f"level must lie in (0, 1), got {level!r}.")
        if hasattr(self.posterior, "interval"):
            low, high = self.posterior.interval(level)
        elif self.samples is not None and np.ndim(self.samples) == 1:
            low, high = np.quantile(np.ravel(self.samples), [(1 - level) / 2, (1 + level) / 2])
        else:
            raise NotImplementedError(f"{self.method} keeps no posterior to take an interval from.")
        return (float(low), float(high))

    _repr_fields = ("method", "decision", "p_left", "p_rope", "p_right")

    # Method-specific values that other layers read, as attributes (also in ``details``).
    degenerate = detail("degenerate", "whether the posterior is a point mass (identical "
                        "differences)", False)
    wins_pmf = detail("wins_pmf", "distribution of the number of data sets A wins (Poisson "
                      "and Poisson-binomial tests)")
    p_regions_averaged = detail("p_regions_averaged", "(left, rope, right) probabilities "
                                "averaged over the posterior draws (hierarchical models)")
    p_no_majority = detail("p_no_majority", "probability that no region holds a majority of "
                           "the data sets (Poisson test)")
    decision_withheld = detail("decision_withheld", "why the decision became \"undecided\" "
                               "(too few data sets), or None")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary of the summary fields (no posterior object or samples)."""
        out = jsonable(self)
        out.update(p_a_better=self.p_a_better, p_b_better=self.p_b_better)
        return out

    def to_frame(self):
        """One-row :class:`pandas.DataFrame` of the scalar fields."""
        import pandas as pd

        row = {k: v for k, v in self.to_dict().items() if not isinstance(v, (list, dict))}
        return pd.DataFrame([row])
