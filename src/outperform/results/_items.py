"""Item diagnostics of a benchmark: per-item statistics, signal and noise per benchmark and
subtask, and item-response abilities of the models (values only)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._base import Result


@dataclass(frozen=True, eq=False, repr=False)
class ItemDiagnostics(Result):
    """What the items of a benchmark say about the models and about themselves.

    Attributes
    ----------
    metric : str
        The score (higher is better), per task the one the logs report first unless chosen.
    models : tuple of str
        The m models (rows of the score matrix).
    tasks, examples : ndarray of str, shape (n,)
        Task (subtask) and item id of each of the n items.
    n_models, difficulty, discrimination : ndarray, shape (n,)
        Models that answered the item; its mean score (higher is easier); its corrected
        item-total correlation (Pearson's r of the item's scores with the models' mean
        scores on the other items; point-biserial for 0/1 scores; NaN when undefined).
    none_right, all_right, top_agree : ndarray of bool, shape (n,)
        No model right; every model right; the ``top_k`` best models (``top_models``) all
        score it the same (it does not separate them; False with fewer than 2 of them on it).
    top_k : int
    top_models : tuple of str
        The k best models, by ``ranked_by``.
    ranked_by : str
        ``"ability"`` (the item response model) or ``"mean score"``.
    model_mean, model_items : ndarray, shape (m,)
        Each model's mean score over the items it answered, and how many it answered.
    benchmarks : tuple of dict
        One row per task and one for all tasks together (``task`` None): ``n_models``,
        ``n_items``, ``signal`` (relative dispersion of the models' means), ``noise``
        (relative standard deviation of the best model's mean over ``n_resamples`` bootstrap
        resamples of the items), ``snr`` (Heineman et al. 2025), ``noise_model``,
        ``decision_accuracy_split_half`` (mean over ``n_splits`` random halves of the
        items of the decision accuracy of one half against the other),
        ``decision_accuracy_vs_all`` (the task's order of the models against the order over
        all tasks; None for the all-tasks row or a single task).
    irt : dict or None
        ``model`` ("rasch" or "2pl"), ``prior_sd``, ``ability``, ``se``, ``low``, ``high``
        (per model, logits), ``item_difficulty`` and ``item_discrimination`` (per item),
        ``confidence_level``, ``converged``, ``loglik``; None when not fitted.
    n_resamples, n_splits : int
    notes : tuple of str
    """

    metric: str
    models: tuple
    tasks: np.ndarray
    examples: np.ndarray
    n_models: np.ndarray
    difficulty: np.ndarray
    discrimination: np.ndarray
    none_right: np.ndarray
    all_right: np.ndarray
    top_agree: np.ndarray
    top_k: int
    top_models: tuple
    ranked_by: str
    model_mean: np.ndarray
    model_items: np.ndarray
    benchmarks: tuple
    irt: dict | None
    n_resamples: int
    n_splits: int
    notes: tuple = field(default=())

    def _summary(self) -> dict:
        return {"metric": self.metric, "models": len(self.models), "items": len(self.examples),
                "none_right": int(self.none_right.sum()), "all_right": int(self.all_right.sum()),
                "top_agree": int(self.top_agree.sum()), "top_k": self.top_k,
                "irt": None if self.irt is None else self.irt["model"]}

    def counts(self) -> dict:
        """How many items no model / every model gets right, do not separate the top k, and
        discriminate negatively (r < 0: the weaker models do better on them)."""
        with np.errstate(invalid="ignore"):
            negative = int(np.sum(self.discrimination < 0))
        return {"items": int(len(self.examples)), "none_right": int(self.none_right.sum()),
                "all_right": int(self.all_right.sum()), "top_agree": int(self.top_agree.sum()),
                "negative_discrimination": negative}

    def to_frame(self):
        """One row per item: task, example and its statistics."""
        import pandas as pd

        frame = pd.DataFrame({"task": self.tasks, "example": self.examples,
                              "n_models": self.n_models, "difficulty": self.difficulty,
                              "discrimination": self.discrimination,
                              "none_right": self.none_right, "all_right": self.all_right,
                              "top_agree": self.top_agree})
        if self.irt is not None:
            frame["irt_difficulty"] = self.irt["item_difficulty"]
            if self.irt["model"] == "2pl":
                frame["irt_discrimination"] = self.irt["item_discrimination"]
        return frame

    def models_frame(self):
        """One row per model, best first (by ability when fitted, else mean score)."""
        import pandas as pd

        frame = pd.DataFrame({"model": list(self.models), "mean": self.model_mean,
                              "items": self.model_items})
        if self.irt is not None:
            for key in ("ability", "se", "low", "high"):
                frame[key] = self.irt[key]
        key = "ability" if self.irt is not None else "mean"
        return frame.sort_values(key, ascending=False, kind="stable").reset_index(drop=True)

    def to_dict(self) -> dict:
        from ._serialize import jsonable

        items = [{"task": str(t), "example": str(e), "n_models": int(k), "difficulty": d,
                  "discrimination": r, "none_right": bool(a), "all_right": bool(b),
                  "top_agree": bool(c)}
                 for t, e, k, d, r, a, b, c in zip(
                     self.tasks, self.examples, self.n_models, self.difficulty.tolist(),
                     self.discrimination.tolist(), self.none_right, self.all_right,
                     self.top_agree)]
        models = [{"model": m, "mean": float(s), "items": int(k)}
                  for m, s, k in zip(self.models, self.model_mean, self.model_items)]
        if self.irt is not None:
            for j, row in enumerate(models):
                row.update({k: float(self.irt[k][j]) for k in ("ability", "se", "low", "high")})
        irt = None if self.irt is None else {
            k: v for k, v in self.irt.items() if k not in ("ability", "se", "low", "high")}
        return jsonable({"metric": self.metric, "models": models, "items": items,
                         "counts": self.counts(), "top_k": self.top_k,
                         "top_models": list(self.top_models), "ranked_by": self.ranked_by,
                         "benchmarks": list(self.benchmarks), "irt": irt,
                         "n_resamples": self.n_resamples, "n_splits": self.n_splits,
                         "notes": list(self.notes)})
