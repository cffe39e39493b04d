"""Agreement coefficients: Krippendorff's own example, irrCAC's documented example, equal to
the krippendorff package and statsmodels, and the vectorised bootstrap equal to the
coefficient recomputed on each resample."""
import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.stats._agreement import (cohen_kappa, fleiss_kappa, gwet_ac1,
                                         krippendorff_alpha)

nan = np.nan
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", §C: 4 observers (rows) ×
# 12 units, values 1–5, missing values; his nominal α = 0.743, interval α = 0.849.
KRIPPENDORFF_C = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
                  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
                  [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
                  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
# irrCAC's vignette "Calculating Chance-corrected Agreement Coefficients", the contingency
# table cont3x3abstractors (2 raters, 100 subjects): kappa2.table 0.7964094,
# gwet.ac1.table 0.8493305, krippen2.table 0.7972585.
ABSTRACTORS = np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]])


def _two_raters(table):
    q = table.shape[0]
    a = np.repeat(np.repeat(np.arange(q), q), table.ravel())
    b = np.repeat(np.tile(np.arange(q), q), table.ravel())
    return a.astype(float), b.astype(float)


def test_krippendorff_published_example():
    data = np.transpose(KRIPPENDORFF_C)
    assert krippendorff_alpha(data, n_resamples=0).estimate == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha(data, level="interval",
                              n_resamples=0).estimate == pytest.approx(0.849, abs=5e-4)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_equals_the_package(level):
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(7)
    scores = np.round(rng.normal(5, 1, (3, 60)), 3)            # nearly every value distinct
    scores[rng.random(scores.shape) < 0.2] = nan
    for data in (np.array(KRIPPENDORFF_C, float),
                 np.where(rng.random((3, 40)) < 0.2, nan, rng.integers(1, 6, (3, 40))),
                 scores):
        # krippendorff.alpha(reliability_data=raters × units, level_of_measurement=level)
        expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
        got = krippendorff_alpha(data.T, level=level, n_resamples=0).estimate
        assert got == pytest.approx(expected, abs=1e-12)


def test_irrcac_abstractors_example():
    a, b = _two_raters(ABSTRACTORS)
    assert cohen_kappa(a, b, n_resamples=0).estimate == pytest.approx(0.7964094, abs=1e-7)
    assert gwet_ac1(np.c_[a, b], n_resamples=0).estimate == pytest.approx(0.8493305, abs=1e-7)
    assert krippendorff_alpha(np.c_[a, b],
                              n_resamples=0).estimate == pytest.approx(0.7972585, abs=1e-7)


@pytest.mark.parametrize("wt", [None, "linear", "quadratic"])
def test_cohen_equals_statsmodels(wt):
    from statsmodels.stats.inter_rater import cohens_kappa

    rng = np.random.default_rng(11)
    for table in (ABSTRACTORS, rng.integers(0, 15, (4, 4))):
        a, b = _two_raters(table)
        # statsmodels.stats.inter_rater.cohens_kappa(table, wt=wt).kappa
        expected = cohens_kappa(table, wt=wt).kappa
        assert cohen_kappa(a, b, weights=wt, n_resamples=0).estimate == pytest.approx(
            expected, abs=1e-12)


def test_fleiss_equals_statsmodels():
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa as sm_fleiss

    ratings = np.random.default_rng(2).integers(0, 4, (60, 5))
    ratings[:20, :3] = 1                                       # some agreement
    # statsmodels: fleiss_kappa(aggregate_raters(ratings)[0], method="fleiss")
    expected = sm_fleiss(aggregate_raters(ratings)[0], method="fleiss")
    assert fleiss_kappa(ratings, n_resamples=0).estimate == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("fn", [fleiss_kappa, gwet_ac1, krippendorff_alpha])
def test_bootstrap_rows_are_the_coefficient_of_each_resample(fn):
    ratings = np.random.default_rng(4).integers(0, 3, (25, 3)).astype(float)
    ratings[:12, 1] = ratings[:12, 0]
    res = fn(ratings, n_resamples=40, random_state=9, alpha=0.2)
    idx = np.random.default_rng(9).integers(0, 25, size=(40, 25))
    direct = np.array([fn(ratings[i], n_resamples=0).estimate for i in idx])
    lo, hi = np.quantile(direct, [0.1, 0.9])
    assert (res.low, res.high) == pytest.approx((lo, hi), abs=1e-12)
    assert res.low <= res.estimate <= res.high


def test_cohen_bootstrap_rows():
    a, b = _two_raters(ABSTRACTORS)
    res = cohen_kappa(a, b, n_resamples=30, random_state=1, alpha=0.5)
    idx = np.random.default_rng(1).integers(0, a.size, size=(30, a.size))
    direct = [cohen_kappa(a[i], b[i], n_resamples=0).estimate for i in idx]
    assert (res.low, res.high) == pytest.approx(tuple(np.quantile(direct, [0.25, 0.75])),
                                                abs=1e-12)


def test_refusals():
    with pytest.raises(InvalidInputError, match="numeric"):
        krippendorff_alpha([["a", "b"], ["a", "a"]])
    with pytest.raises(InvalidInputError, match="level"):
        krippendorff_alpha([[1, 2], [2, 2]], level="circular")
    with pytest.raises(InvalidInputError, match="at least 2 items"):
        cohen_kappa([1, nan], [1, 0])
