"""Dunnett's many-to-one comparisons (stats/_dunnett.py) against scipy.stats.dunnett
(independent samples) and R's multcomp::glht on a blocked design."""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from scipy import stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats._dunnett import dunnett_paired

# 5 blocks (rows) x models a, b, c, d (columns).
Y = np.array([10.2, 11.1, 9.8, 12.0, 10.9, 11.7, 9.5, 10.1, 11.3, 12.4, 10.8, 11.9,
              10.0, 10.7, 11.6, 12.8, 11.4, 12.2, 9.9, 10.4]).reshape(5, 4)

# R 4.x, multcomp (Debian r-cran-multcomp):
# d <- data.frame(y = <Y row by row>, model = factor(rep(c("a","b","c","d"), times = 5)),
#                 block = factor(rep(1:5, each = 4)))
# g <- glht(aov(y ~ model + block, data = d), linfct = mcp(model = "Dunnett"))
# s <- summary(g, test = adjusted("single-step", abseps = 1e-6, maxpts = 1e6))
# ci <- confint(g, level = 0.95, calpha = adjusted_calpha(abseps = 1e-6, maxpts = 1e6))
R_T = [1.5540758814, -0.7951085905, 1.2288041853]          # b-a, c-a, d-a
R_P = [0.3199078403, 0.7692270738, 0.4932287992]
R_LOW = [-0.6246831128, -1.9246831128, -0.8046831128]
R_HIGH = [2.344683113, 1.044683113, 2.164683113]
# base = 2 (control b), alternative = "greater", abseps = 1e-7, maxpts = 2e6:
# K <- contrMat(table(d$model), type = "Dunnett", base = 2)
# glht(aov(...), linfct = mcp(model = K), alternative = "greater")
R_GREATER_P = [0.98909783, 0.99845345, 0.85019515]          # a-b, c-b, d-b
R_GREATER_LOW = [-2.12585779, -2.56585779, -1.44585779]


def test_blocked_two_sided_equals_r_multcomp():
    res = dunnett_paired(Y, control="a", names="abcd")
    others = [1, 2, 3]
    np.testing.assert_allclose(res.statistic[others, 0], R_T, atol=1e-8)
    np.testing.assert_allclose(res.pvalue_adjusted[others, 0], R_P, atol=1e-4)
    np.testing.assert_allclose(res.details["ci_low"][others, 0], R_LOW, atol=1e-4)
    np.testing.assert_allclose(res.details["ci_high"][others, 0], R_HIGH, atol=1e-4)
    assert res.details["df"] == 12 and res.control == "a"
    # the control's row is the mirror image of its column
    np.testing.assert_allclose(res.details["ci_low"][0, others], -np.array(R_HIGH), atol=1e-4)
    np.testing.assert_array_equal(res.pvalue_adjusted, res.pvalue_adjusted.T)


def test_blocked_one_sided_equals_r_multcomp():
    res = dunnett_paired(Y, control="b", names="abcd", alternative="greater")
    others = [0, 2, 3]
    np.testing.assert_allclose(res.pvalue_adjusted[others, 1], R_GREATER_P, atol=1e-4)
    np.testing.assert_allclose(res.details["ci_low"][others, 1], R_GREATER_LOW, atol=1e-4)
    assert np.all(np.isinf(res.details["ci_high"][others, 1]))


R_LIVE = """
suppressMessages(library(multcomp))
y <- c({y})
d <- data.frame(y = y, model = factor(rep(letters[1:{k}], times = {b})),
                block = factor(rep(1:{b}, each = {k})))
g <- glht(aov(y ~ model + block, data = d), linfct = mcp(model = "Dunnett"),
          alternative = "{alt}")
s <- summary(g, test = adjusted("single-step", abseps = 1e-6, maxpts = 1e6))
ci <- confint(g, level = 0.9, calpha = adjusted_calpha(abseps = 1e-6, maxpts = 1e6))
cat(sprintf("%.10f", s$test$pvalues), "\\n")
cat(sprintf("%.10f", ci$confint[, "lwr"]), "\\n")
cat(sprintf("%.10f", ci$confint[, "upr"]), "\\n")
"""


def _has_multcomp() -> bool:
    return shutil.which("Rscript") is not None and subprocess.run(
        ["Rscript", "-e", "library(multcomp)"], capture_output=True).returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not _has_multcomp(), reason="Rscript with multcomp is absent")
@pytest.mark.parametrize("alt", ["two.sided", "less"])
def test_random_blocked_design_equals_r_multcomp_live(alt):
    rng = np.random.default_rng(7)
    b, k = 9, 5
    x = rng.normal(size=(b, k)) + rng.normal(size=(b, 1)) + [0.0, 0.5, 0.2, -0.3, 0.8]
    script = R_LIVE.format(y=", ".join(f"{v:.12f}" for v in x.ravel()), b=b, k=k, alt=alt)
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()
    p, low, high = (np.array([float(v) for v in line.split()]) for line in out)
    res = dunnett_paired(x, control=0, alpha=0.1,
                         alternative="two-sided" if alt == "two.sided" else "less")
    np.testing.assert_allclose(res.pvalue_adjusted[1:, 0], p, atol=1e-4)
    finite = np.isfinite(low)
    np.testing.assert_allclose(res.details["ci_low"][1:, 0][finite], low[finite], atol=1e-4)
    np.testing.assert_allclose(res.details["ci_high"][1:, 0], high, atol=1e-4)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_independent_samples_equal_scipy_dunnett(alternative):
    """scipy.stats.dunnett(*samples[1:], control=samples[0], alternative=..., rng=0): its
    p-values come from randomised quasi-Monte Carlo (error ~1e-5), its intervals from a
    root search with tol=1e-3 on the confidence level (scipy's _allowance), so the bounds
    are compared at 1e-3 and the p-values at 1e-4."""
    rng = np.random.default_rng(3)
    samples = [rng.normal(m, 1.0, n) for n, m in [(8, 0.0), (10, 0.8), (7, 1.2), (12, 0.3)]]
    ref = stats.dunnett(*samples[1:], control=samples[0], alternative=alternative, rng=0)
    res = dunnett_paired(samples, control=0, design="independent", alternative=alternative)
    np.testing.assert_allclose(res.statistic[1:, 0], ref.statistic, atol=1e-10)
    np.testing.assert_allclose(res.pvalue_adjusted[1:, 0], ref.pvalue, atol=1e-4)
    ci = ref.confidence_interval(0.95)
    for ours, theirs in ((res.details["ci_low"][1:, 0], ci.low),
                         (res.details["ci_high"][1:, 0], ci.high)):
        theirs = np.broadcast_to(np.asarray(theirs, dtype=float), ours.shape)
        finite = np.isfinite(theirs)
        np.testing.assert_array_equal(np.isfinite(ours), finite)
        np.testing.assert_allclose(ours[finite], theirs[finite], atol=1e-3)


def test_lower_is_better_orients_the_statistic_only():
    hib = dunnett_paired(Y, control="a", names="abcd")
    lib = dunnett_paired(Y, control="a", names="abcd", higher_is_better=False)
    np.testing.assert_array_equal(lib.statistic, -hib.statistic)
    np.testing.assert_array_equal(lib.pvalue_adjusted, hib.pvalue_adjusted)


def test_reject_matches_the_interval_excluding_zero():
    x = Y + np.array([0.0, 2.0, 0.0, 0.1])
    res = dunnett_paired(x, control=0, alpha=0.05)
    excludes = (res.details["ci_low"][1:, 0] > 0) | (res.details["ci_high"][1:, 0] < 0)
    np.testing.assert_array_equal(res.reject[1:, 0], excludes)
    assert res.reject[1, 0] and not res.reject[2, 0]


@pytest.mark.parametrize("scores, kw, error, match", [
    (Y, {"control": "z", "names": "abcd"}, InvalidInputError, "not one of the models"),
    (Y, {"control": 7}, InvalidInputError, "not one of the models"),
    (np.where(np.eye(5, 4) == 1, np.nan, Y), {"control": 0}, InvalidInputError,
     "Skillings–Mack"),
    (Y[:, :1], {"control": 0}, TooFewError, "at least 2 models"),
    (np.add.outer(np.arange(5.0), np.arange(4.0)), {"control": 0}, DegenerateDataError,
     "zero residual"),
    (Y, {"control": 0, "alternative": "bigger"}, InvalidInputError, "alternative"),
])
def test_odd_inputs(scores, kw, error, match):
    with pytest.raises(error, match=match):
        dunnett_paired(scores, **kw)
