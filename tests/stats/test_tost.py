"""TOST equivalence test with the ROPE as margin, against statsmodels' ttost_paired."""
import numpy as np
import pytest
from statsmodels.stats.weightstats import ttost_paired

from outperform.stats import corrected_resampled_ttest, tost
from outperform._validation import InvalidInputError


@pytest.mark.parametrize("seed", range(6))
def test_tost_equals_statsmodels_ttost_paired(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))
    a = rng.normal(0.8, 0.05, size=n)
    b = a + rng.normal(rng.uniform(-0.02, 0.02), 0.02, size=n)
    margin = float(rng.uniform(0.005, 0.05))
    # statsmodels: ttost_paired(x1, x2, low, upp) -> (pvalue, (t1, p1, df1), (t2, p2, df2))
    p, (t1, p1, _), (t2, p2, _) = ttost_paired(a, b, -margin, margin)
    res = tost(a, b, margin=margin)
    assert res.pvalue == pytest.approx(p, rel=1e-10, abs=1e-300)
    assert res.details["t_lower"] == pytest.approx(t1, rel=1e-10)
    assert res.details["p_lower"] == pytest.approx(p1, rel=1e-10, abs=1e-300)
    assert res.details["t_upper"] == pytest.approx(t2, rel=1e-10)
    assert res.details["p_upper"] == pytest.approx(p2, rel=1e-10, abs=1e-300)


def test_tost_decision_is_the_confidence_interval_inside_the_margin():
    rng = np.random.default_rng(1)
    for _ in range(20):
        a = rng.normal(size=30)
        b = a + rng.normal(rng.uniform(-0.3, 0.3), 0.3, size=30)
        res = tost(a, b, margin=0.2)
        low, high = res.confidence_interval(0.90)
        assert (res.pvalue < 0.05) == (-0.2 < low and high < 0.2)


def test_tost_on_folds_uses_the_corrected_standard_error():
    rng = np.random.default_rng(2)
    a, b = rng.normal(0.8, 0.02, 10), rng.normal(0.8, 0.02, 10)
    res = tost(a, b, margin=0.01, rho=0.1)
    ref = corrected_resampled_ttest(a + 0.01, b, rho=0.1, alternative="greater")
    assert res.details["p_lower"] == ref.pvalue
    assert res.details["standard_error"] == pytest.approx(
        np.std(a - b, ddof=1) * np.sqrt(1 / 10 + 0.1 / 0.9), rel=1e-12)


@pytest.mark.parametrize("margin", [0, -0.1, float("nan"), True, "0.1"])
def test_bad_margins_are_refused(margin):
    with pytest.raises(InvalidInputError, match="margin"):
        tost([1.0, 2.0, 3.0], [1.5, 2.0, 2.0], margin=margin)


def test_q1_reports_tost_beside_the_rope():
    import pandas as pd
    from outperform.compare import compare_predictions
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    p1 = np.clip(0.5 + 0.3 * (2 * y - 1) + rng.normal(0, 0.2, 400), 0.01, 0.99)
    p2 = np.clip(p1 + rng.normal(0, 0.02, 400), 0.01, 0.99)
    df = pd.DataFrame({"y_true": y, "A": p1, "B": p2})
    rep = compare_predictions(df, loss="squared", rope=0.01)
    loss_a, loss_b = (p1 - y) ** 2, (p2 - y) ** 2
    # statsmodels: ttost_paired(-loss_a, -loss_b, -0.01, 0.01)[0] (scores = negated losses)
    assert rep.tests["tost"].pvalue == pytest.approx(
        ttost_paired(-loss_a, -loss_b, -0.01, 0.01)[0], rel=1e-10)
    assert any("TOST" in c and "within ±0.01" in c for c in rep.conclusions)
    assert "tost" not in compare_predictions(df, loss="squared").tests


def _folds(shift, seed=0, metric="accuracy"):
    import pandas as pd
    rng = np.random.default_rng(seed)
    rows = []
    for r in range(3):
        for f in range(10):
            base = rng.normal(0.8, 0.02)
            for m, s in zip("AB", (shift, 0.0)):
                rows.append(dict(task="iris", model=m, run=r, fold=f, n_train=135, n_test=15,
                                 **{metric: base + s + rng.normal(0, 0.004)}))
    return pd.DataFrame(rows)


def _corrected_tost_by_hand(d, margin, rho):
    # Nadeau & Bengio (2003): se = sd(d) sqrt(1/n + rho/(1 - rho)), t with n - 1 df;
    # Schuirmann's TOST is the larger of the two one-sided p-values.
    from scipy import stats
    n = d.size
    se = np.std(d, ddof=1) * np.sqrt(1 / n + rho / (1 - rho))
    p_low = stats.t.sf((d.mean() + margin) / se, n - 1)
    p_up = stats.t.cdf((d.mean() - margin) / se, n - 1)
    return max(p_low, p_up)


@pytest.mark.parametrize("metric,shift", [("accuracy", 0.001), ("error_rate", -0.001),
                                          ("accuracy", 0.03)])
def test_q2_reports_tost_with_the_corrected_variance(metric, shift):
    from outperform.compare import compare
    df = _folds(shift, metric=metric)
    rep = compare(df, rope=0.01)
    a = df[df.model == "A"].sort_values(["run", "fold"])[metric].to_numpy()
    b = df[df.model == "B"].sort_values(["run", "fold"])[metric].to_numpy()
    expected = _corrected_tost_by_hand(a - b, 0.01, 15 / 150)
    assert rep.tests["tost"].pvalue == pytest.approx(expected, rel=1e-10)
    sentence = next(c for c in rep.conclusions if c.startswith("TOST"))
    verdict = "are equivalent" if expected < 0.05 else "not shown to be equivalent"
    assert verdict in sentence and f"within ±0.01 {metric}" in sentence
    # The sentence's difference is the metric's own A − B, whatever its direction.
    assert f"= {np.mean(a - b):.4g}," in sentence
    assert "tost" not in compare(df).tests       # no margin chosen: no equivalence test


def test_q3_reports_tost_over_data_sets_beside_the_bayesian_tests():
    import pandas as pd
    from outperform.compare import compare
    rng = np.random.default_rng(4)
    a = rng.uniform(0.7, 0.95, 20)
    b = a + rng.normal(0.001, 0.004, 20)
    df = pd.DataFrame({"task": [f"d{i}" for i in range(20)], "A": a, "B": b})
    rep = compare(df, metric="accuracy", bayesian=True)
    # statsmodels: ttost_paired(a, b, -0.01, 0.01)[0]; 0.01 is the default ROPE for scores
    # in [0, 1] (Benavoli et al. 2017)
    assert rep.tests["tost"].pvalue == pytest.approx(ttost_paired(a, b, -0.01, 0.01)[0],
                                                     rel=1e-10)
    assert any(c.startswith("TOST") and "within ±0.01 accuracy" in c for c in rep.conclusions)
    rep = compare(df, metric="accuracy", bayesian=True, rope=0.002)
    assert rep.tests["tost"].pvalue == pytest.approx(ttost_paired(a, b, -0.002, 0.002)[0],
                                                     rel=1e-10)
    assert "tost" not in compare(df, metric="accuracy").tests   # no ROPE, no TOST


def test_reports_with_tost_follow_the_json_schema():
    # TOST's alternative is "equivalence"; the schema refused it (Q1 JSON with a ROPE).
    import pandas as pd
    from outperform.compare import compare_predictions
    from outperform.report import validate_report
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    p1 = np.clip(0.5 + 0.3 * (2 * y - 1) + rng.normal(0, 0.2, 300), 0.01, 0.99)
    p2 = np.clip(p1 + rng.normal(0, 0.02, 300), 0.01, 0.99)
    rep = compare_predictions(pd.DataFrame({"y_true": y, "A": p1, "B": p2}), loss="squared",
                              rope=0.01)
    assert rep.tests["tost"].alternative == "equivalence"
    validate_report(rep)
