"""Sample-efficiency curves of runs x tasks (Agarwal et al. 2021, Fig. 9): values only."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result

#: most steps printed by __str__; longer curves are thinned evenly (the last step always shown)
_SHOWN = 12


@dataclass(frozen=True, eq=False, repr=False)
class SampleEfficiency(Result):
    """An aggregate of each model's runs x tasks at every step of its learning curves.

    Attributes
    ----------
    models : tuple of str
    metric, normalization : str
        The metric and the rule that put the tasks on one scale, in words.
    statistic : str
        ``"iqm"``, ``"mean"``, ``"median"`` or ``"optimality_gap"``.
    steps : dict of str -> numpy.ndarray, shape (n_steps,)
        Each model's steps (e.g. environment frames, epochs), ascending.
    estimate, low, high : dict of str -> numpy.ndarray, shape (n_steps,)
        The aggregate at each step and its pointwise percentile bootstrap band.
    confidence_level : float
    bootstrap : str
        How the runs were resampled; one resample draws the same runs at every step.
    n_resamples : int
    notes : tuple of str
    """

    models: tuple
    metric: str
    normalization: str
    statistic: str
    steps: dict
    estimate: dict
    low: dict
    high: dict
    confidence_level: float
    bootstrap: str
    n_resamples: int
    notes: tuple = ()

    _repr_fields = ("models", "metric", "statistic", "normalization", "confidence_level")

    def to_frame(self):
        """One row per (model, step): estimate, low, high."""
        import pandas as pd
        return pd.DataFrame([{"model": m, "step": s, "estimate": e, "low": lo, "high": hi}
                             for m in self.models for s, e, lo, hi in zip(
                                 self.steps[m], self.estimate[m], self.low[m], self.high[m])])

    def to_dict(self) -> dict:
        return {"metric": self.metric, "normalization": self.normalization,
                "statistic": self.statistic, "confidence_level": float(self.confidence_level),
                "bootstrap": self.bootstrap, "n_resamples": int(self.n_resamples),
                "curves": {m: {"step": np.asarray(self.steps[m]).tolist(),
                               "estimate": self.estimate[m].tolist(),
                               "low": self.low[m].tolist(), "high": self.high[m].tolist()}
                           for m in self.models},
                "notes": list(self.notes)}

    def __str__(self) -> str:
        lines = [f"sample efficiency: {self.statistic} of normalised {self.metric!r} at each "
                 f"step, {100 * self.confidence_level:g}% bands ({self.bootstrap}, "
                 f"{self.n_resamples} resamples; the same runs drawn at every step)",
                 f"normalisation: {self.normalization}"]
        for m in self.models:
            n = len(self.steps[m])
            shown = np.unique(np.linspace(0, n - 1, min(n, _SHOWN)).round().astype(int))
            thinned = "" if len(shown) == n else f" ({len(shown)} of {n} steps shown)"
            lines.append(f"{m}{thinned}")
            lines += [f"  step {self.steps[m][i]:>10g}: {self.estimate[m][i]:.3f} "
                      f"[{self.low[m][i]:.3f}, {self.high[m][i]:.3f}]" for i in shown]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)
