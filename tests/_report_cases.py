"""Reports the renderer tests share: published data, synthetic folds, per-example predictions.

Each report is computed once per test session (``report(name)`` caches it), since the HTML,
LaTeX, schema and file tests all render the same ones.
"""
from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from outperform import compare
from outperform.data import load_demsar_table2, load_demsar_table6

# Demšar (2006) §3.2.4, on Table 6: at α = 0.05 Nemenyi finds no pair; at α = 0.10 C4.5 is
# worse than C4.5+m and C4.5+m+cf, and the data do not tell where C4.5+cf belongs.
DEMSAR_005 = ["Nemenyi (CD = 1.254) finds no significantly different pair at α = 0.05."]
DEMSAR_010 = [
    "C4.5+m is significantly better than C4.5",
    "C4.5+m+cf is significantly better than C4.5",
    "the data are not sufficient to tell which group C4.5+cf belong(s) to",
]
DEMSAR_SENTENCES = {"table6_005": DEMSAR_005, "table6_010": DEMSAR_010}

# Names that break HTML, LaTeX, Markdown and file systems if they are not escaped.
NASTY = ("<script>alert('x')</script>", "a_b & c% $d$ #1 -->", "{br}ace~^\\back", "plain")


def cv_folds(models=("lr", "svm"), shift=(0.0, 0.02), runs=2, folds=5, seed=0) -> pd.DataFrame:
    """Per-fold accuracies of r x k cross-validation on one task (Q2)."""
    rng = np.random.default_rng(seed)
    rows = []
    for r in range(runs):
        for f in range(folds):
            base = rng.normal(0.8, 0.02)
            for m, s in zip(models, shift):
                rows.append(dict(task="iris", model=m, run=r, fold=f,
                                 accuracy=base + s + rng.normal(0, 0.01)))
    return pd.DataFrame(rows)


def nasty_table(seed=1) -> pd.DataFrame:
    """Q3 scores of models with hostile names on 10 data sets."""
    rng = np.random.default_rng(seed)
    rows = [dict(task=f"d{t}", model=m, accuracy=0.7 + 0.03 * i + rng.normal(0, 0.02))
            for t in range(10) for i, m in enumerate(NASTY)]
    return pd.DataFrame(rows)


def predictions(n=200, seed=2) -> pd.DataFrame:
    """Binary labels and the predicted probabilities of two models on one test set (Q1)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    good = np.clip(np.where(y == 1, 0.7, 0.3) + rng.normal(0, 0.2, n), 0.01, 0.99)
    weak = np.clip(np.where(y == 1, 0.6, 0.4) + rng.normal(0, 0.25, n), 0.01, 0.99)
    return pd.DataFrame({"y_true": y, "good": good, "weak": weak})


_BUILDERS = {
    "table6_005": lambda: compare(load_demsar_table6()),
    "table6_010": lambda: compare(load_demsar_table6(), alpha=0.10),
    "table6_control": lambda: compare(load_demsar_table6(), control="C4.5"),
    "table6_bayes": lambda: compare(load_demsar_table6(), bayesian=True),
    "table2_bayes": lambda: compare(load_demsar_table2(), bayesian=True),
    "q2_two": lambda: compare(cv_folds()),
    "q2_three": lambda: compare(cv_folds(("lr", "svm", "rf"), (0.0, 0.02, 0.01))),
    "q1_labels": lambda: compare(predictions().assign(
        good=lambda d: (d.good >= 0.5).astype(int), weak=lambda d: (d.weak >= 0.5).astype(int))),
    "q1_log": lambda: compare(predictions(), loss="log"),
    "q1_three": lambda: compare(predictions().assign(
        good=lambda d: (d.good >= 0.5).astype(int), weak=lambda d: (d.weak >= 0.5).astype(int),
        third=lambda d: 1 - d.weak)),
    "q3_folds": lambda: compare(pd.concat([cv_folds(seed=s).assign(task=f"t{s}")
                                           for s in range(8)]), bayesian=True),
    "nasty": lambda: compare(nasty_table()),
}
CASES = tuple(_BUILDERS)


@cache

def three_predictors(n: int = 400, seed: int = 0) -> pd.DataFrame:
    """Q1: labels ``y_true`` and three predictors a, b, c wrong on about 10%, 20%, 30%."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    flip = lambda rate: np.where(rng.random(n) < rate, 1 - y, y)  # noqa: E731
    return pd.DataFrame({"y_true": y, "a": flip(0.1), "b": flip(0.2), "c": flip(0.3)})


def two_models_folds(seed: int = 1) -> pd.DataFrame:
    """Q2: models a and b (a 0.02 better) on 3 x 10-fold cross-validation of one task."""
    rng = np.random.default_rng(seed)
    rows = [dict(task="iris", model=m, run=r, fold=f, n_train=135, n_test=15,
                 accuracy=0.8 + shift + rng.normal(0, 0.01))
            for r in range(3) for f in range(10) for m, shift in (("a", 0.02), ("b", 0.0))]
    return pd.DataFrame(rows)



#: Variance components of :func:`variance_simulation` (Williams 2026 eq. 1).
VARIANCE_TRUE = {"task": 1.0, "model x task": 0.25, "seed": 0.09, "residual": 0.04}


def variance_simulation(n_tasks, n_models=3, n_runs=5, seed=0) -> pd.DataFrame:
    """Runs x tasks with the known components :data:`VARIANCE_TRUE` (model m adds 0.1 m)."""
    rng = np.random.default_rng(seed)
    sd = {k: np.sqrt(v) for k, v in VARIANCE_TRUE.items()}
    task = rng.normal(0, sd["task"], n_tasks)
    inter = rng.normal(0, sd["model x task"], (n_models, n_tasks))
    seeds = rng.normal(0, sd["seed"], (n_tasks, n_runs))
    return pd.DataFrame([{"task": f"t{t}", "model": f"m{m}", "run": r,
                          "score": 0.1 * m + task[t] + inter[m, t] + seeds[t, r]
                          + rng.normal(0, sd["residual"])}
                         for t in range(n_tasks) for m in range(n_models) for r in range(n_runs)])


def fold_tasks(n_tasks=12, seed=0) -> pd.DataFrame:
    """Q3 with folds: A 0.004 better than B on 10 folds of each of ``n_tasks`` tasks."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        base = rng.uniform(0.6, 0.9)
        for f in range(10):
            b = base + rng.normal(0, 0.02)
            rows += [{"task": f"t{t}", "model": m, "run": 0, "fold": f,
                      "accuracy": b + s + rng.normal(0, 0.01)} for m, s in (("A", .004), ("B", 0))]
    return pd.DataFrame(rows)


def report(name: str):
    """The ComparisonReport of case ``name`` (computed once)."""
    return _BUILDERS[name]()
