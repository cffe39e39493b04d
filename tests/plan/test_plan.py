"""Planning (issue 17): closed forms against statsmodels, R's pwr and their derivations.

Every expected number comes from statsmodels (live call), from R 4.2 with Debian's r-cran-pwr
(the call in a comment; ``test_against_live_r`` re-runs them when Rscript is present), or from
the formula evaluated here with scipy, never from ``outperform.plan``.
"""
from __future__ import annotations

import itertools
import math
import shutil
import subprocess

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.power import TTestPower

from outperform import InvalidInputError
from outperform.plan import (
    auc_power,
    corrected_ttest_power,
    corrected_ttest_table,
    design_effect,
    mcnemar_power,
    paired_ttest_power,
    power_curve,
    sign_test_power,
    wilcoxon_power,
)

TOL = 1e-6


# --- paired t: statsmodels' TTestPower and R's pwr.t.test -----------------------------------

@pytest.mark.parametrize("alternative, sm_alt", [("two-sided", "two-sided"),
                                                 ("greater", "larger")])
def test_paired_t_matches_statsmodels_for_each_unknown(alternative, sm_alt):
    """Power equals TTestPower.power; a solved n, d or alpha gives TTestPower.power = target.

    (TTestPower.solve_power itself stops about 2e-6 short in d for the one-sided case, so
    solutions are compared by the power statsmodels computes at them.)
    """
    tp = TTestPower()

    def sm_power(d, n, a=0.05):
        return tp.power(effect_size=d, nobs=n, alpha=a, alternative=sm_alt)

    assert paired_ttest_power(effect=0.4, n=25, alternative=alternative).power == pytest.approx(
        sm_power(0.4, 25), abs=TOL)
    res = paired_ttest_power(effect=0.5, power=0.8, alternative=alternative)
    assert sm_power(0.5, res.details["n_unrounded"]) == pytest.approx(0.8, abs=1e-9)
    assert res.details["n_unrounded"] == pytest.approx(
        tp.solve_power(effect_size=0.5, power=0.8, alpha=0.05, alternative=sm_alt), rel=TOL)
    assert res.n == math.ceil(res.details["n_unrounded"])
    assert res.power == pytest.approx(sm_power(0.5, res.n), abs=TOL) and res.power >= 0.8
    d = paired_ttest_power(n=30, power=0.8, alternative=alternative).effect
    assert sm_power(d, 30) == pytest.approx(0.8, abs=1e-9)
    a = paired_ttest_power(effect=0.5, n=30, power=0.8, alpha=None, alternative=alternative)
    assert sm_power(0.5, 30, a.alpha) == pytest.approx(0.8, abs=1e-9)


def test_paired_t_power_matches_r_pwr():
    # R: pwr::pwr.t.test(n = 20, d = 0.5, type = "paired")$power
    assert paired_ttest_power(effect=0.5, n=20).power == pytest.approx(0.564504418439084,
                                                                       abs=TOL)
    # R: pwr::pwr.t.test(n = 25, d = 0.4, type = "paired", alternative = "greater")$power
    assert paired_ttest_power(effect=0.4, n=25, alternative="greater").power == pytest.approx(
        0.617258997440687, abs=TOL)
    # R: pwr::pwr.t.test(d = 0.5, power = 0.8, type = "paired")$n (uniroot tol 1.2e-4)
    assert paired_ttest_power(effect=0.5, power=0.8).details["n_unrounded"] == pytest.approx(
        33.3671291390766, rel=TOL)


def test_design_effect_scales_n_by_kish_factor():
    # Kish: 1 + (m - 1) ICC; the effective n (n / deff) is the independent-pairs n.
    assert design_effect(5, 0.1) == pytest.approx(1.4)
    plain = paired_ttest_power(effect=0.3, power=0.8).details["n_unrounded"]
    clustered = paired_ttest_power(effect=0.3, power=0.8, cluster_size=5, icc=0.2)
    assert clustered.details["n_unrounded"] == pytest.approx(1.8 * plain, rel=TOL)
    assert clustered.details["n_effective"] * 1.8 == pytest.approx(clustered.n)


def test_wilcoxon_is_the_t_test_at_are_times_n_and_says_it_is_an_approximation():
    res = wilcoxon_power(effect=0.5, power=0.8)
    t_n = TTestPower().solve_power(effect_size=0.5, power=0.8, alpha=0.05)
    assert res.details["n_unrounded"] == pytest.approx(t_n * math.pi / 3, rel=TOL)
    assert "approximation" in res.approximation
    assert "Note:" in str(res)


# --- corrected resampled t-test ---------------------------------------------------------------

def _corrected_power_by_derivation(d, r, k, rho, alpha=0.05):
    """Noncentral t: df = rk - 1, ncp = d / sqrt(rho + (1 - rho) / (rk)), both tails."""
    j = r * k
    ncp = d / math.sqrt(rho + (1 - rho) / j)
    crit = stats.t.isf(alpha / 2, j - 1)
    return stats.nct.sf(crit, j - 1, ncp) + stats.nct.cdf(-crit, j - 1, ncp)


def test_corrected_t_table_follows_its_derivation():
    table = corrected_ttest_table(effect=0.5, runs=(1, 3, 10), folds=(5, 10))
    for r, k in itertools.product((1, 3, 10), (5, 10)):
        assert table.loc[r, k] == pytest.approx(_corrected_power_by_derivation(0.5, r, k, 1 / k),
                                                abs=TOL)


def test_corrected_t_minimum_detectable_effect_inverts_power():
    mde = corrected_ttest_table(power=0.8, runs=(5,), folds=(10,)).loc[5, 10]
    assert _corrected_power_by_derivation(mde, 5, 10, 0.1) == pytest.approx(0.8, abs=TOL)


def test_corrected_t_power_ceiling_matches_r_pwr_norm():
    # R: pwr::pwr.norm.test(d = 0.5 / sqrt(0.1), n = 1)$power
    res = corrected_ttest_power(effect=0.5, runs=3, folds=10)
    assert res.details["power_ceiling"] == pytest.approx(0.352608082444703, abs=TOL)
    # R: pwr::pwr.norm.test(d = 0.8 / sqrt(0.2), n = 1, alternative = "greater")$power
    res = corrected_ttest_power(effect=0.8, runs=3, folds=5, alternative="greater")
    assert res.details["power_ceiling"] == pytest.approx(0.557250063295546, abs=TOL)


def test_corrected_t_solves_smallest_runs_and_refuses_beyond_the_ceiling():
    res = corrected_ttest_power(effect=1.0, power=0.8, folds=10)
    r = int(res.n)
    assert _corrected_power_by_derivation(1.0, r, 10, 0.1) >= 0.8
    assert _corrected_power_by_derivation(1.0, r - 1, 10, 0.1) < 0.8
    with pytest.raises(InvalidInputError, match="however many runs"):
        corrected_ttest_power(effect=0.5, power=0.8, folds=10)


# --- McNemar --------------------------------------------------------------------------------

def test_mcnemar_connor_sample_size_of_the_issue_by_derivation():
    # Connor (1987): n = (z_{1-a/2} sqrt(psi) + z_{power} sqrt(psi - delta^2))^2 / delta^2
    psi, delta = 0.15, 0.02
    n = ((stats.norm.ppf(0.975) * math.sqrt(psi) + stats.norm.ppf(0.8)
          * math.sqrt(psi - delta ** 2)) / delta) ** 2
    res = mcnemar_power(accuracy_a=0.80, accuracy_b=0.82, discordance=0.15, power=0.8)
    assert res.details["n_unrounded"] == pytest.approx(n, rel=1e-9)
    assert res.n == math.ceil(n) == 2941


def test_mcnemar_miettinen_by_derivation():
    # Miettinen (1968), Lachin (1992) eq. 3.5:
    # n = (z_a psi + z_b sqrt(psi^2 - delta^2 (3 + psi) / 4))^2 / (psi delta^2)
    psi, delta = 0.2, 0.05
    n = ((stats.norm.ppf(0.975) * psi + stats.norm.ppf(0.9)
          * math.sqrt(psi ** 2 - delta ** 2 * (3 + psi) / 4)) ** 2 / (psi * delta ** 2))
    res = mcnemar_power(accuracy_a=0.75, accuracy_b=0.70, discordance=psi, power=0.9,
                        method="miettinen")
    assert res.details["n_unrounded"] == pytest.approx(n, rel=1e-9)


def _mcnemar_exact_power_by_enumeration(n, p10, p01, alpha):
    """Sum over every table (n10, n01, rest) of the multinomial, scipy's binomtest decides."""
    total = 0.0
    for n10 in range(n + 1):
        for n01 in range(n + 1 - n10):
            if n10 + n01 and stats.binomtest(n01, n10 + n01, 0.5).pvalue <= alpha:
                total += stats.multinomial.pmf([n10, n01, n - n10 - n01], n,
                                               [p10, p01, 1 - p10 - p01])
    return total


def test_mcnemar_exact_power_matches_enumeration_of_all_tables():
    res = mcnemar_power(accuracy_a=0.80, accuracy_b=0.70, discordance=0.3, n=40,
                        method="exact")
    assert res.power == pytest.approx(_mcnemar_exact_power_by_enumeration(40, 0.2, 0.1, 0.05),
                                      abs=1e-9)


def test_mcnemar_exact_sample_size_is_the_smallest_reaching_power():
    res = mcnemar_power(accuracy_a=0.80, accuracy_b=0.70, discordance=0.3, power=0.8,
                        method="exact")
    n = int(res.n)
    below = [mcnemar_power(accuracy_a=0.80, accuracy_b=0.70, discordance=0.3, n=m,
                           method="exact").power for m in range(max(1, n - 30), n)]
    assert res.power >= 0.8 and max(below) < 0.8


def test_mcnemar_minimum_detectable_difference_inverts_connor():
    res = mcnemar_power(accuracy_b=0.80, discordance=0.15, n=2000, power=0.8)
    delta, psi = res.effect, 0.15
    z = (delta * math.sqrt(2000) - stats.norm.ppf(0.975) * math.sqrt(psi)) / math.sqrt(
        psi - delta ** 2)
    assert stats.norm.cdf(z) == pytest.approx(0.8, abs=TOL)
    assert res.details["accuracy_a"] == pytest.approx(0.80 + delta)


# --- sign test --------------------------------------------------------------------------------

@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_sign_test_exact_power_matches_binomtest_enumeration(alternative):
    n, p = 24, 0.72
    wins = np.arange(n + 1)
    reject = np.array([stats.binomtest(int(w), n, 0.5, alternative=alternative).pvalue <= 0.05
                       for w in wins])
    expected = stats.binom.pmf(wins, n, p)[reject].sum()
    res = sign_test_power(p_win=p, n=n, alternative=alternative)
    assert res.power == pytest.approx(expected, abs=1e-12)


def test_sign_test_arcsine_matches_r_pwr_p_test():
    # R: pwr::pwr.p.test(h = ES.h(0.7, 0.5), n = 30)$power
    assert sign_test_power(p_win=0.7, n=30, method="arcsine").power == pytest.approx(
        0.61563612151648, abs=TOL)


# --- curves and bad inputs ------------------------------------------------------------------

def test_power_curve_is_the_planner_along_a_grid():
    frame = power_curve(paired_ttest_power, "n", [10, 40], effect=0.5)
    expected = [TTestPower().power(effect_size=0.5, nobs=m, alpha=0.05) for m in (10, 40)]
    np.testing.assert_allclose(frame["power"], expected, atol=TOL)


@pytest.mark.parametrize("call, match", [
    (lambda: paired_ttest_power(effect=0.3, power=0.04), "must exceed alpha"),
    (lambda: paired_ttest_power(effect=0.0, power=0.8), "no difference"),
    (lambda: paired_ttest_power(effect=0.3, power=0.8, icc=1.2), r"icc must lie in \[0, 1\]"),
    (lambda: paired_ttest_power(effect=0.3, power=0.8, icc=-0.1), r"icc must lie in \[0, 1\]"),
    (lambda: paired_ttest_power(effect=0.3), "all of power, n, effect and alpha but one"),
    (lambda: paired_ttest_power(effect=-0.3, power=0.8, alternative="greater"), "swap A and B"),
    (lambda: mcnemar_power(accuracy_a=0.82, accuracy_b=0.80, discordance=0.01, power=0.8),
     "raise the discordance to at least 0.02"),
    (lambda: mcnemar_power(accuracy_a=0.80, accuracy_b=0.80, discordance=0.1, power=0.8),
     "no difference"),
    (lambda: mcnemar_power(accuracy_a=0.95, accuracy_b=0.95, discordance=0.5, power=0.8),
     "lower the discordance"),
    (lambda: sign_test_power(p_win=0.5, power=0.8), "no difference"),
    (lambda: corrected_ttest_table(effect=0.5, power=0.8), "not both"),
])
def test_nonsense_inputs_say_what_to_change(call, match):
    with pytest.raises(InvalidInputError, match=match):
        call()


# --- R itself, when present -------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("Rscript") is None, reason="Rscript not installed")
def test_against_live_r():
    """The pinned R numbers above, and R's power at our solved n / d / alpha equal to the
    target (pwr's own uniroot stops at 1.2e-4, so solutions are compared by their power)."""
    n = paired_ttest_power(effect=0.5, power=0.8).details["n_unrounded"]
    d = paired_ttest_power(n=30, power=0.8).effect
    a = paired_ttest_power(effect=0.5, n=30, power=0.8, alpha=None).alpha
    h_n = sign_test_power(p_win=0.7, power=0.8, method="arcsine").details["n_unrounded"]
    script = f"""
    suppressMessages(library(pwr))
    cat(sprintf("%.15g\\n", c(
      pwr.t.test(n = 20, d = 0.5, type = "paired")$power,
      pwr.t.test(n = 25, d = 0.4, type = "paired", alternative = "greater")$power,
      pwr.t.test(n = {n!r}, d = 0.5, type = "paired")$power,
      pwr.t.test(n = 30, d = {d!r}, type = "paired")$power,
      pwr.t.test(n = 30, d = 0.5, sig.level = {a!r}, type = "paired")$power,
      pwr.p.test(h = ES.h(0.7, 0.5), n = 30)$power,
      pwr.p.test(h = ES.h(0.7, 0.5), n = {h_n!r})$power,
      pwr.norm.test(d = 0.5 / sqrt(0.1), n = 1)$power)))
    """
    try:
        out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True,
                             check=True, timeout=120).stdout
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"R or r-cran-pwr unavailable: {exc.stderr.strip()[:200]}")
    got = [float(v) for v in out.split()]
    expected = [0.564504418439084, 0.617258997440687, 0.8, 0.8, 0.8, 0.61563612151648, 0.8,
                0.352608082444703]
    np.testing.assert_allclose(got, expected, atol=TOL)


# --- two paired AUCs ----------------------------------------------------------------------------

def _hm_var(a, n1, n0):
    """Hanley & McNeil (1982) eq. 2, Q1 = A/(2-A), Q2 = 2A^2/(1+A)."""
    q1, q2 = a / (2 - a), 2 * a * a / (1 + a)
    return (a * (1 - a) + (n1 - 1) * (q1 - a * a) + (n0 - 1) * (q2 - a * a)) / (n1 * n0)


@pytest.mark.parametrize("r", [0.0, 0.5])
def test_auc_power_follows_hanley_mcneil_and_obuchowski(r):
    n1, n0 = 120, 240
    va, vb = _hm_var(0.85, n1, n0), _hm_var(0.75, n1, n0)
    shift = 0.1 / math.sqrt(va + vb - 2 * r * math.sqrt(va * vb))
    z = stats.norm.isf(0.025)
    expected = stats.norm.cdf(shift - z) + stats.norm.cdf(-shift - z)
    res = auc_power(auc_a=0.85, auc_b=0.75, n_positive=n1, ratio=2, correlation=r)
    assert res.power == pytest.approx(expected, abs=1e-12)
    solved = auc_power(auc_a=0.85, auc_b=0.75, ratio=2, correlation=r, power=0.8)
    assert auc_power(auc_a=0.85, auc_b=0.75, n_positive=solved.details["n_unrounded"],
                     ratio=2, correlation=r).power == pytest.approx(0.8, abs=1e-9)
    with pytest.raises(InvalidInputError, match="correlation must lie in"):
        auc_power(auc_a=0.85, auc_b=0.75, n_positive=n1, correlation=1.0)


# --- Bayesian assurance -----------------------------------------------------------------------

def test_mcnemar_assurance_equals_brute_force_over_every_table():
    """Every test set of 25 examples, decided by bayes.bayesian_mcnemar, weighted by its
    multinomial probability."""
    from outperform.bayes import bayesian_mcnemar
    from outperform.plan import mcnemar_assurance

    n, p10, p01 = 25, 0.2, 0.1
    expected = dict.fromkeys(("A better", "B better", "practically equivalent", "undecided"),
                             0.0)
    for n10 in range(n + 1):
        for n01 in range(n + 1 - n10):
            prob = stats.multinomial.pmf([n10, n01, n - n10 - n01], n, [p10, p01, 1 - p10 - p01])
            expected[bayesian_mcnemar(n01, n10, rope=0.05, threshold=0.9).decision] += prob
    got = mcnemar_assurance(n=n, accuracy_a=0.8, accuracy_b=0.7, discordance=0.3, rope=0.05,
                            threshold=0.9)
    for name, value in expected.items():
        assert got.probabilities[name] == pytest.approx(value, abs=1e-9)
    assert sum(got.probabilities.values()) == pytest.approx(1.0, abs=1e-9)


def test_mcnemar_assurance_averages_over_the_design_prior():
    from outperform.plan import mcnemar_assurance

    kw = dict(n=400, accuracy_b=0.70, discordance=0.2)
    each = [mcnemar_assurance(accuracy_a=a, **kw).probabilities["A better"]
            for a in (0.72, 0.76)]
    mixed = mcnemar_assurance(accuracy_a=[0.72, 0.76], weights=[1, 3], **kw)
    assert mixed.probabilities["A better"] == pytest.approx(0.25 * each[0] + 0.75 * each[1])
