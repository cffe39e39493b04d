"""The report object returned by :func:`outperform.compare`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ._bayesian import BayesianResult
from ._best import ComparisonWithBest
from ._frequentist import FrequentistResult
from ._leaderboard import Leaderboard
from ._base import Result, detail
from ._pairwise import PairwiseResult
from ._runs import RunsComparison
from ._serialize import jsonable

SCHEMA_VERSION = "1.2"


@dataclass(frozen=True, repr=False)
class ComparisonReport(Result):
    """Everything one comparison found: summary table, tests, post-hoc results, words.

    Attributes
    ----------
    question : {"Q1", "Q2", "Q3"}
        Williams (2026): Q1 predictors on one test set, Q2 algorithms on one task by
        resampling, Q3 algorithms over many tasks.
    metric : str
    higher_is_better : bool
    models : tuple of str
    n_tasks : int
    alpha : float
    summary : tuple of dict
        One row per model, best first: ``model``, ``average_rank`` (Q3), ``mean_score``, ...
    tests : mapping of str to FrequentistResult or BayesianResult
        Omnibus and two-model tests by name, in the order they should be read.
    recommended : str
        Key in ``tests`` of the test the decision rests on, and why in ``rationale``.
    rationale : str
    posthoc : mapping of str to PairwiseResult
    groups : mapping of str to list of tuple of str
        Groups of models not significantly different, per post-hoc procedure (CD diagrams).
    conclusions : tuple of str
        The decisions in words.
    warnings : tuple of str
        Threats to the conclusions: assumptions not met, small samples, many ties, ...
    control : str, optional
    details : mapping
        Input description (aggregation rule, source), JSON-safe.
    leaderboard : Leaderboard, optional
        Rank confidence sets, tiers and compact letters of the models (Q1 with more than
        two predictors, see :func:`outperform.compare.leaderboard`); None otherwise.
    runs : RunsComparison, optional
        Interval estimates over runs (seeds) x tasks (Agarwal et al. 2021, see
        :func:`outperform.compare.compare_runs`) of a Q3 table with several runs per model
        and task, when attached; None otherwise. ``to_dict()`` gives it as
        ``details["runs"]`` (without the performance profiles, which are for figures).
    best : ComparisonWithBest, optional
        Hsu's comparisons with the best (``posthoc="mcb"``): which models could be the best,
        with constrained simultaneous intervals; None otherwise. ``to_dict()`` gives it as
        ``details["best"]``.

    ``repr(report)`` is one line (question, models, metric, the recommended test and the
    decision); ``str(report)`` too. The whole report: :func:`outperform.report.render_text`
    (or ``render_markdown``, ``render_html``...), ``to_dict()``, ``to_frame()``, and the HTML
    display of a notebook.
    """

    question: str
    metric: str
    higher_is_better: bool
    models: tuple[str, ...]
    n_tasks: int
    alpha: float
    summary: tuple[Mapping[str, Any], ...]
    tests: Mapping[str, FrequentistResult | BayesianResult]
    recommended: str
    rationale: str
    posthoc: Mapping[str, PairwiseResult] = field(default_factory=dict)
    groups: Mapping[str, list[tuple[str, ...]]] = field(default_factory=dict)
    conclusions: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    control: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    leaderboard: Leaderboard | None = None
    runs: RunsComparison | None = None
    best: ComparisonWithBest | None = None

    # Input description that other layers read, as attributes (also in ``details``).
    loss = detail("loss", "Q1: the per-example loss compared (\"zero-one\", \"squared\"...)")
    threshold = detail("threshold", "decision threshold of the Bayesian tests")
    rope = detail("rope", "ROPE of the Bayesian tests, in metric units")
    missing_cells = detail("missing_cells", "Q3: (task, model) cells absent from the table",
                           ())
    rope_rule = detail("rope_rule", "how the ROPE was chosen (\"given\", or the rule)")
    n_examples = detail("n_examples", "Q1: test examples compared")
    task = detail("task", "Q2: the task (data set) the folds come from")
    rho = detail("rho", "Q2: correlation of the fold differences used by the corrected tests")
    rho_source = detail("rho_source", "Q2: where ``rho`` comes from (n_test / n_train, 1/k, "
                        "given)")
    aggregation = detail("aggregation", "Q3: the rule that made one score per (task, model)")

    def _summary(self) -> dict[str, Any]:
        decision = self.conclusions[0] if self.conclusions else None
        return {"question": self.question, "models": self.models, "metric": self.metric,
                "n_tasks": self.n_tasks, "recommended": self.recommended or None,
                "decision": decision}

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary with a ``schema_version`` field."""
        out = {
            "schema_version": SCHEMA_VERSION,
            "question": self.question,
            "metric": self.metric,
            "higher_is_better": self.higher_is_better,
            "models": list(self.models),
            "n_tasks": self.n_tasks,
            "alpha": self.alpha,
            "control": self.control,
            "summary": jsonable(list(self.summary)),
            "tests": {k: v.to_dict() for k, v in self.tests.items()},
            "recommended": self.recommended,
            "rationale": self.rationale,
            "posthoc": {k: v.to_dict() for k, v in self.posthoc.items()},
            "groups": jsonable(dict(self.groups)),
            "conclusions": list(self.conclusions),
            "warnings": list(self.warnings),
            "details": jsonable(dict(self.details)),
            "leaderboard": (None if self.leaderboard is None
                            else jsonable(self.leaderboard.to_dict())),
        }
        if self.runs is not None:
            # under details, where the JSON schema (1.1) has always had it
            runs = self.runs.to_dict()
            del runs["profiles"]   # the curves are for figures; the report shows the tables
            out["details"]["runs"] = jsonable(runs)
        if self.best is not None:
            out["details"]["best"] = jsonable(self.best.to_dict())
        return out

    def to_frame(self):
        """The summary table as a :class:`pandas.DataFrame` (one row per model)."""
        import pandas as pd

        return pd.DataFrame(list(self.summary))
