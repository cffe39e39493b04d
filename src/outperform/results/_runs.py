"""Interval estimates over runs x tasks (Agarwal et al. 2021): values only, they pickle.

Each object keeps its bootstrap distribution, so an interval at another level is a percentile
of the same resamples (the percentile bootstrap, rliable's default), not a new computation.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._base import Result

#: how the runs x tasks table was resampled, in the words the reports print
BOOTSTRAPS = {
    False: "stratified bootstrap (runs resampled within each task, tasks fixed)",
    True: "two-level bootstrap (tasks resampled, then runs within each drawn task)",
}

#: A variance component below this share of the total is on its boundary, 0 (an optimiser
#: stops at e.g. 1e-7 of it): printed as 0 and named in the boundary note.
BOUNDARY_SHARE = 1e-8


def _number(v: float, sign: str = "") -> str:
    """Three decimals, or four significant digits for magnitudes from 1e6 (e.g. 1.471e+300)."""
    return f"{v:{sign}.4g}" if np.isfinite(v) and abs(v) >= 1e6 else f"{v:{sign}.3f}"


def _cell(e, sign: str = "") -> str:
    """``estimate [low, high]`` of an IntervalEstimate, as the tables print it."""
    return f"{_number(e.estimate, sign)} [{_number(e.low, sign)}, {_number(e.high, sign)}]"


def _percentile_interval(distribution: np.ndarray, level: float) -> np.ndarray:
    """Percentile interval along axis 0, ``np.percentile`` as arch / rliable compute it."""
    if not 0 < level < 1:
        raise ValueError(f"confidence_level must be in (0, 1), got {level}.")
    return np.percentile(distribution, [50 * (1 - level), 50 * (1 + level)], axis=0)


@dataclass(frozen=True, eq=False)
class IntervalEstimate(Result):
    """A point estimate of one aggregate with its percentile bootstrap confidence interval.

    Attributes
    ----------
    statistic : str
        ``"mean"``, ``"median"``, ``"iqm"``, ``"optimality_gap"`` or
        ``"probability_of_improvement"``.
    estimate : float
        The aggregate on the data as given (normalised scores; see the statistic's docstring).
    low, high : float
        Percentile bootstrap interval at ``confidence_level``.
    task_bootstrap : bool
        False: stratified bootstrap (runs within tasks, tasks fixed): the uncertainty if the
        experiment were repeated with new seeds on the same tasks. True: the two-level version
        that also resamples tasks: the uncertainty about a larger population of tasks.
    distribution : numpy.ndarray, shape (n_resamples,)
        The aggregate on each bootstrap resample.
    """

    statistic: str
    estimate: float
    low: float
    high: float
    confidence_level: float
    task_bootstrap: bool
    distribution: np.ndarray = field(repr=False)

    @property
    def n_resamples(self) -> int:
        return int(self.distribution.shape[0])

    @property
    def bootstrap(self) -> str:
        return BOOTSTRAPS[self.task_bootstrap]

    def confidence_interval(self, confidence_level: float | None = None) -> tuple[float, float]:
        """Percentile interval of the stored resamples (``confidence_level`` by default)."""
        level = self.confidence_level if confidence_level is None else confidence_level
        low, high = _percentile_interval(self.distribution, level)
        return float(low), float(high)

    def to_dict(self) -> dict:
        return {"statistic": self.statistic, "estimate": float(self.estimate),
                "low": float(self.low), "high": float(self.high),
                "confidence_level": float(self.confidence_level),
                "bootstrap": self.bootstrap, "n_resamples": self.n_resamples}


@dataclass(frozen=True, eq=False, repr=False)
class PerformanceProfile(Result):
    """Run-score distribution tau -> fraction of all runs (of all tasks) scoring above tau.

    Attributes
    ----------
    taus : numpy.ndarray, shape (n_taus,)
        Thresholds, in normalised-score units.
    fraction : numpy.ndarray, shape (n_taus,)
        Fraction of the n_runs x n_tasks scores strictly above each tau.
    low, high : numpy.ndarray, shape (n_taus,)
        Pointwise percentile bootstrap band at ``confidence_level``.
    """

    taus: np.ndarray
    fraction: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence_level: float
    task_bootstrap: bool
    n_resamples: int

    _repr_fields = ("taus", "confidence_level", "n_resamples", "bootstrap")

    @property
    def bootstrap(self) -> str:
        return BOOTSTRAPS[self.task_bootstrap]

    def to_dict(self) -> dict:
        return {"taus": self.taus.tolist(), "fraction": self.fraction.tolist(),
                "low": self.low.tolist(), "high": self.high.tolist(),
                "confidence_level": float(self.confidence_level),
                "bootstrap": self.bootstrap, "n_resamples": int(self.n_resamples)}


#: the rule of outperform.compare._pair_choice that shows neighbours in the ranking
NEIGHBOURS = "neighbours in the ranking"


def pairs_sentence(summary: dict, level: float) -> str:
    """The sentence of a ``pair_summary`` (see :class:`RunsComparison`)."""
    if not summary:
        return ""
    names = {"iqm": "IQM", "optimality_gap": "optimality gap"}
    counts = ", ".join(f"{names.get(s, s)} {n:,}" for s, n in summary["differing"].items())
    shown = (f"all {summary['total']:,} pairs are shown" if summary["shown"] == summary["total"]
             else f"{summary['shown']:,} of {summary['total']:,} pairs are shown "
                  f"({summary['rule']}; all pairs with pairs='all', --pairs all)")
    return (f"Pairs: {shown}. Of all {summary['total']:,} pairs, the {100 * level:g}% interval "
            f"of the difference excludes 0 (unadjusted) for: {counts}.")


@dataclass(frozen=True, eq=False, repr=False)
class RunsComparison(Result):
    """Interval estimates of several models over runs x tasks (``compare.compare_runs``).

    Attributes
    ----------
    models, tasks : tuple of str
    n_runs : dict of str -> int
        Runs per task of each model.
    metric : str
    normalization : str
        The rule that put the tasks on one scale, in words (printed with every table).
    aggregates : dict of str -> dict of str -> IntervalEstimate
        model -> statistic -> estimate.
    improvements : dict of (str, str) -> IntervalEstimate
        (X, Y) -> average probability of improvement P(X > Y); 0.5 is no difference.
    profiles : dict of str -> PerformanceProfile
    notes : tuple of str
        How the runs were read (e.g. last step of a learning curve, folds averaged).
    differences : dict of (str, str) -> dict of str -> IntervalEstimate
        (X, Y) -> statistic -> the difference statistic(X) - statistic(Y), its interval the
        percentiles of the resampled differences (paired or not, as ``paired`` says).
    paired : bool
        True: run i of every model shared a seed/split and the runs were resampled together
        (paired bootstrap); False: each model's runs were resampled on their own.
    pair_summary : dict
        ``rule`` (which pairs ``improvements`` and ``differences`` hold, in words), ``shown``
        (their number), ``total`` (all k(k − 1)/2 pairs) and ``differing`` (statistic -> how
        many of all pairs have a difference interval that excludes 0; unadjusted for
        multiplicity).
    """

    models: tuple[str, ...]
    tasks: tuple[str, ...]
    n_runs: dict
    metric: str
    normalization: str
    aggregates: dict
    improvements: dict
    profiles: dict
    notes: tuple[str, ...] = ()
    differences: dict = field(default_factory=dict)
    paired: bool = False
    pair_summary: dict = field(default_factory=dict)

    _repr_fields = ("models", "tasks", "metric", "normalization", "paired")

    @property
    def design(self) -> str:
        """The resampling of the runs across models, in the words the reports print."""
        return ("paired: run i of every model shares a seed/split, and the runs are resampled "
                "together" if self.paired else
                "unpaired: each model's runs are resampled on their own")

    @property
    def confidence_level(self) -> float:
        return next(iter(next(iter(self.aggregates.values())).values())).confidence_level

    def _ranking_lines(self, width: int, stats: list[str]) -> list[str]:
        """The models in ranking order, each with its comparison to the next one (the
        neighbours' P(X > Y) and the difference of the ranking statistic): one table."""
        pairs = list(self.improvements)
        order = [x for x, _ in pairs] + [pairs[-1][1]]
        key = "iqm" if "iqm" in stats else stats[0]
        lines = ["models from best to worst by " + ("IQM" if key == "iqm" else key)
                 + "; the last two columns compare each with the next", "",
                 "model".ljust(width) + "".join(f"{s:>26}" for s in stats)
                 + f"{'difference to next':>26}{'P(> next)':>24}"]
        for m in order:
            row = m.ljust(width) + "".join(f"{_cell(e):>26}" for e in self.aggregates[m].values())
            nxt = next(((x, y) for x, y in pairs if x == m), None)
            if nxt is not None:
                row += (f"{_cell(self.differences[nxt][key], '+'):>26}"
                        f"{_cell(self.improvements[nxt]):>24}")
            lines.append(row)
        return lines + ["", self.pairs_sentence]

    @property
    def pairs_sentence(self) -> str:
        """Which pairs are shown in full, and how many of all pairs differ (one sentence)."""
        return pairs_sentence(self.pair_summary, self.confidence_level)

    @property
    def bootstrap(self) -> str:
        return next(iter(next(iter(self.aggregates.values())).values())).bootstrap

    def to_frame(self):
        """One row per (model, statistic): estimate, low, high; then one per (X, Y) pair."""
        import pandas as pd
        rows = [{"model": m, "statistic": s, "estimate": e.estimate, "low": e.low, "high": e.high}
                for m, stats in self.aggregates.items() for s, e in stats.items()]
        rows += [{"model": f"{x} vs {y}", "statistic": "P(X > Y)", "estimate": e.estimate,
                  "low": e.low, "high": e.high} for (x, y), e in self.improvements.items()]
        rows += [{"model": f"{x} - {y}", "statistic": e.statistic, "estimate": e.estimate,
                  "low": e.low, "high": e.high}
                 for (x, y), stats in self.differences.items() for e in stats.values()]
        return pd.DataFrame(rows)

    def to_dict(self) -> dict:
        return {"models": list(self.models), "tasks": list(self.tasks),
                "n_runs": {m: int(n) for m, n in self.n_runs.items()}, "metric": self.metric,
                "normalization": self.normalization, "bootstrap": self.bootstrap,
                "aggregates": {m: {s: e.to_dict() for s, e in st.items()}
                               for m, st in self.aggregates.items()},
                "improvements": [{"x": x, "y": y, **e.to_dict()}
                                 for (x, y), e in self.improvements.items()],
                "profiles": {m: p.to_dict() for m, p in self.profiles.items()},
                "paired": bool(self.paired), "design": self.design,
                "differences": [{"x": x, "y": y, **e.to_dict()}
                                for (x, y), st in self.differences.items() for e in st.values()],
                "pair_summary": dict(self.pair_summary),
                "notes": list(self.notes)}

    def __str__(self) -> str:
        level = f"{100 * self.confidence_level:g}%"
        stats = list(next(iter(self.aggregates.values())))
        width = max(len(m) for m in self.models) + 2
        runs = sorted(set(self.n_runs.values()))
        lines = [f"{len(self.models)} models x {len(self.tasks)} tasks x "
                 f"{'/'.join(map(str, runs))} runs, metric {self.metric!r}",
                 f"normalisation: {self.normalization}",
                 f"{level} intervals: {self.bootstrap}, "
                 f"{next(iter(next(iter(self.aggregates.values())).values())).n_resamples} "
                 "resamples", ""]
        if self.pair_summary.get("rule") == NEIGHBOURS and self.improvements:
            lines += self._ranking_lines(width, stats)
            lines += [f"note: {n}" for n in self.notes]
            return "\n".join(lines)
        lines.append("model".ljust(width) + "".join(f"{s:>26}" for s in stats))
        for m, st in self.aggregates.items():
            lines.append(m.ljust(width) + "".join(
                f"{_cell(e):>26}" for e in st.values()))
        if self.pair_summary:
            lines += ["", self.pairs_sentence]
        if self.improvements:
            lines += ["", "probability of improvement P(X > Y) (0.5: no difference)"]
            for (x, y), e in self.improvements.items():
                lines.append(f"  P({x} > {y}) = {e.estimate:.3f} [{e.low:.3f}, {e.high:.3f}]")
        if self.differences:
            lines += ["", f"differences X - Y ({self.design})"]
            lines.append("pair".ljust(2 * width + 3) + "".join(f"{s:>26}" for s in stats))
            for (x, y), st in self.differences.items():
                lines.append(f"{x} - {y}".ljust(2 * width + 3) + "".join(
                    f"{_cell(e, '+'):>26}"
                    for e in st.values()))
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


@dataclass(frozen=True, eq=False, repr=False)
class VarianceComponents(Result):
    """Variance components of runs x tasks (``compare.variance_components``), by REML.

    Attributes
    ----------
    metric : str
    components : dict of str -> float
        Variance (metric units squared) of ``task``, ``model x task``, ``seed``, optional
        ``split``, and ``residual`` (model x seed [x split] within a task).
    difference : dict of str -> float
        What each source adds to the variance of the difference of two models' mean scores over
        the n_tasks x n_runs (x n_folds) design, seeds shared by the models: 2 var(model x
        task) / n_tasks + 2 var(residual) / (n_tasks n_runs n_folds); task, seed and split
        effects cancel.
    fixed_effects : dict of str -> float
        Intercept (first model) and each other model's difference from it.
    model_formula : str
        The model in lme4's notation.
    converged : bool
    notes : tuple of str
        Warnings of the fit (e.g. a variance on the boundary, 0).
    """

    metric: str
    components: dict
    difference: dict
    n_tasks: int
    n_runs: int
    n_folds: int
    converged: bool
    notes: tuple
    fixed_effects: dict
    model_formula: str

    _repr_fields = ("metric", "model_formula", "n_tasks", "n_runs", "n_folds", "converged")

    @property
    def shares(self) -> dict:
        """Each component's fraction of the total variance of one score."""
        total = sum(self.components.values())
        return {k: v / total for k, v in self.components.items()}

    @property
    def icc_runs(self) -> float:
        """Intraclass correlation of two runs of one model on one task: the share of the
        variance they have in common (task + model x task)."""
        c = self.components
        return (c["task"] + c["model x task"]) / sum(c.values())

    def advice(self) -> str:
        """Where more runs buy the most precision for a difference of two models."""
        d = self.difference
        more_tasks = d["model x task"] + d["residual"]   # both shrink with more tasks
        if d["model x task"] >= d["residual"]:
            return (f"the model x task interaction gives {d['model x task'] / more_tasks:.0%} of "
                    "the variance of a difference: more tasks help, more seeds barely do.")
        return (f"seed-to-seed noise gives {d['residual'] / more_tasks:.0%} of the variance of a "
                "difference: more seeds (or more tasks) help.")

    def to_dict(self) -> dict:
        return {"metric": self.metric, "model_formula": self.model_formula,
                "components": dict(self.components), "shares": self.shares,
                "difference": dict(self.difference), "icc_runs": self.icc_runs,
                "fixed_effects": dict(self.fixed_effects), "n_tasks": self.n_tasks,
                "n_runs": self.n_runs, "n_folds": self.n_folds, "converged": self.converged,
                "notes": list(self.notes), "advice": self.advice()}

    def __str__(self) -> str:
        lines = [f"variance components of {self.metric!r} (REML): {self.model_formula}",
                 f"{'source':<14}{'variance':>12}{'share':>8}{'in a difference':>18}"]
        total = sum(self.components.values())
        # an optimiser's 1e-7 for a variance on its boundary is printed as the 0 it stands for
        shown = {k: (v if v > BOUNDARY_SHARE * total else 0.0)
                 for k, v in self.components.items()}
        lines += [f"{k:<14}{v:>12.4g}{self.shares[k]:>8.1%}{self.difference[k]:>18.4g}"
                  for k, v in shown.items()]
        lines += [f"intraclass correlation of runs within a task: {self.icc_runs:.3f}",
                  self.advice()] + [f"note: {n}" for n in self.notes]
        return "\n".join(lines)
