"""The two-way (blocks x models) ANOVA error shared by MCB and Dunnett
(stats/_blocked_means.py), against statsmodels."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from outperform.stats._blocked_means import blocked_means


def test_mse_and_df_equal_statsmodels_anova_lm():
    """statsmodels: anova_lm(ols("y ~ C(model) + C(block)", d).fit()).loc["Residual"]."""
    sm = pytest.importorskip("statsmodels.formula.api")
    from statsmodels.stats.anova import anova_lm

    rng = np.random.default_rng(8)
    x = rng.normal(size=(7, 4)) + rng.normal(size=(7, 1)) + [0.0, 0.3, 0.1, 0.5]
    d = pd.DataFrame({"y": x.ravel(), "block": np.repeat(np.arange(7), 4),
                      "model": np.tile(np.arange(4), 7)})
    table = anova_lm(sm.ols("y ~ C(model) + C(block)", d).fit())
    fit = blocked_means(x, procedure="test")
    assert fit.df == table.loc["Residual", "df"]
    assert fit.mse == pytest.approx(table.loc["Residual", "mean_sq"], rel=1e-12)
    np.testing.assert_allclose(fit.means, x.mean(axis=0))
    assert fit.standard_error == pytest.approx(np.sqrt(2 * fit.mse / 7))
