"""Results of comparisons between every pair of models, or of every model with a control."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ._base import Result, detail
from ._serialize import jsonable


@dataclass(frozen=True, repr=False)
class PairwiseResult(Result):
    """Pairwise comparisons of k models (post-hoc tests, tables of P(row better than column)).

    Matrices are k x k, indexed like ``names``; entry ``[i, j]`` compares model ``i`` (row)
    with model ``j`` (column). For a comparison with a control, only the control's row and
    column are filled and the rest is NaN.

    Attributes
    ----------
    method : str
    names : tuple of str
        Model names, length k.
    statistic : ndarray, shape (k, k)
        Test statistic of row vs column (antisymmetric for signed statistics).
    pvalue : ndarray, shape (k, k)
        Unadjusted p-values (symmetric), NaN on the diagonal.
    pvalue_adjusted : ndarray, shape (k, k)
        p-values adjusted for multiplicity by ``adjustment``.
    reject : ndarray of bool, shape (k, k)
        Whether the null hypothesis of the pair is rejected at ``alpha``.
    alpha : float
    adjustment : str
        Multiplicity control: ``"nemenyi"``, ``"holm"``, ``"bonferroni-dunn"``, ...
    control : str, optional
        Name of the control model for many-to-one comparisons.
    critical_difference : float, optional
        Critical difference of average ranks (Nemenyi, Bonferroni-Dunn).
    average_ranks : ndarray, shape (k,), optional
        Average ranks (rank 1 = best) when the test is rank-based.
    details : mapping
    """

    method: str
    names: tuple[str, ...]
    statistic: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray
    reject: np.ndarray
    alpha: float
    adjustment: str
    control: str | None = None
    critical_difference: float | None = None
    average_ranks: np.ndarray | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    # Method-specific values that other layers read, as attributes (also in ``details``).
    decision = detail("decision", "k x k decisions of an all-pairs Bayesian test (\"A better\", "
                      "\"practically equivalent\", ...; row model is A)")
    p_row_better = detail("p_row_better", "k x k posterior probability that the row model is "
                          "better than the column model")
    p_rope = detail("p_rope", "k x k posterior probability of practical equivalence")
    rope = detail("rope", "each pair's ROPE half-width, in metric units (k x k), or the ROPE")
    cycles = detail("cycles", "non-transitive cycles of the pairwise decisions (lists of "
                    "names)", ())
    decision_withheld = detail("decision_withheld", "why the decisions became \"undecided\" "
                               "(too few data sets), or None")
    rank_biserial = detail("rank_biserial", "k x k matched-pairs rank-biserial correlations "
                           "(positive: the row model better)")
    wins = detail("wins", "k x k counts of items (or data sets) the row model wins")
    accuracy = detail("accuracy", "accuracy of each model (0/1 scores), indexed like names")
    fallback = detail("fallback", "why another procedure than the one asked for was run")
    untested_pairs = detail("untested_pairs", "pairs never observed together (incomplete "
                            "tables), not tested", ())
    threshold = detail("threshold", "decision threshold of an all-pairs Bayesian test (its "
                       "alpha is 1 - threshold)")
    incomplete_data = detail("incomplete_data", "whether the ranks come from a table with "
                             "missing cells", False)

    def _summary(self) -> dict[str, Any]:
        significant = sum(bool(self.reject[i, j]) for i, j in self.pairs())
        return {"method": self.method, "names": self.names, "control": self.control,
                "alpha": self.alpha, "adjustment": self.adjustment,
                "significant_pairs": f"{significant} of {len(self.pairs())}"}

    def pairs(self) -> list[tuple[int, int]]:
        """Index pairs (i, j), i < j, that were tested (only the control's pairs if any)."""
        k = len(self.names)
        if self.control is not None:
            c = self.names.index(self.control)
            return [(c, j) for j in range(k) if j != c]
        return [(i, j) for i in range(k) for j in range(i + 1, k)]

    def to_frame(self):
        """Long :class:`pandas.DataFrame`, one row per tested pair, sorted by p-value.

        Columns ``model_a``, ``model_b``, ``statistic`` (positive favours ``model_a``),
        ``pvalue``, ``pvalue_adjusted``, ``reject`` and, for rank tests, ``rank_difference``
        = rank of ``model_b`` − rank of ``model_a`` (positive when ``model_a`` ranks better).
        """
        import pandas as pd

        rows = []
        for i, j in self.pairs():
            row = {
                "model_a": self.names[i],
                "model_b": self.names[j],
                "statistic": self.statistic[i, j],
                "pvalue": self.pvalue[i, j],
                "pvalue_adjusted": self.pvalue_adjusted[i, j],
                "reject": bool(self.reject[i, j]),
            }
            if self.average_ranks is not None:
                # Positive when model_a ranks better (lower rank), like ``statistic``.
                row["rank_difference"] = self.average_ranks[j] - self.average_ranks[i]
            rows.append(row)
        return pd.DataFrame(rows).sort_values("pvalue", kind="stable").reset_index(drop=True)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary: the scalar fields and the list of tested pairs."""
        out = {k: jsonable(getattr(self, k)) for k in
               ("method", "names", "alpha", "adjustment", "control", "critical_difference",
                "average_ranks", "details")}
        out["pairs"] = jsonable(self.to_frame().to_dict(orient="records"))
        return out
