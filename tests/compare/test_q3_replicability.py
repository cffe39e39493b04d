"""The Q3 report's replicability section (compare/_q3_replicability.py): per-data-set
corrected resampled t-tests on the folds, one-sided, counted by stats.replicability."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from outperform import compare
from outperform.data import load_demsar_table6
from outperform.stats import replicability

from _report_cases import cv_folds  # noqa: E402


def _folds():
    return pd.concat([cv_folds(seed=s).assign(task=f"t{s}") for s in range(8)])


def _by_hand(df):
    """Nadeau & Bengio's t on each task's 10 folds (2 x 5-fold CV, rho = 1/5), one-sided
    'svm better': t = mean(d) / sqrt(var(d) (1/n + rho / (1 - rho))), p = scipy.stats.t.sf(t,
    n - 1)."""
    out = []
    for t in sorted(df.task.unique()):
        part = df[df.task == t].sort_values(["run", "fold"])
        d = (part[part.model == "svm"].accuracy.to_numpy()
             - part[part.model == "lr"].accuracy.to_numpy())
        n, rho = d.size, 1 / 5
        tt = d.mean() / np.sqrt(d.var(ddof=1) * (1 / n + rho / (1 - rho)))
        out.append(stats.t.sf(tt, n - 1))
    return np.array(out)


def test_section_counts_the_per_data_set_tests():
    rep = compare(_folds())
    rec = rep.details["replicability"]
    assert (rec["a"], rec["b"]) == ("lr", "svm")
    p_svm = np.array([x["pvalue"] for x in rec["b_better"]["data_sets"]])
    np.testing.assert_allclose(p_svm, _by_hand(_folds()), rtol=1e-10)
    expected = replicability(p_svm, alpha=0.025, names=[f"t{s}" for s in range(8)])
    assert rec["b_better"]["k_bonferroni"] == expected.k_bonferroni
    assert rec["b_better"]["k_fisher"] == expected.k_fisher
    lr = np.array([x["pvalue"] for x in rec["a_better"]["data_sets"]])
    np.testing.assert_allclose(lr, 1 - p_svm, rtol=1e-12)
    said = [c for c in rep.conclusions if "replicability analysis" in c]
    assert said[0].startswith(f"svm beats lr on at least {expected.k_bonferroni} of 8")


def test_no_section_without_folds_or_with_more_models():
    assert "replicability" not in compare(load_demsar_table6()).details
    three = pd.concat([cv_folds(("lr", "svm", "rf"), (0.0, 0.02, 0.01), seed=s)
                       .assign(task=f"t{s}") for s in range(6)])
    assert "replicability" not in compare(three).details
