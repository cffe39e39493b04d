"""Bayesian McNemar test (outperform.bayes._mcnemar): Lacoste Thm 4.1 + Williams eq. 7 ROPE."""
from __future__ import annotations

import csv
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform._validation import InvalidInputError
from outperform.bayes import bayesian_mcnemar, default_phi_rope



def williams_table1() -> dict[str, dict[str, int]]:
    path = resources.files("outperform.data").joinpath("published/williams2026_table1.csv")
    with path.open() as fh:
        return {r["task"]: {k: int(v) for k, v in r.items() if k != "task"}
                for r in csv.DictReader(fh)}


def test_issue_reference_posterior():
    # R: a <- 1 + 17; b <- 1 + 2; a / (a + b); qbeta(c(.5, .025, .975), a, b); 1 - pbeta(.5, a, b)
    res = bayesian_mcnemar(17, 2)
    assert res.posterior_mean == pytest.approx(0.8571429, abs=1e-7)
    assert res.details["posterior_median"] == pytest.approx(0.8685263, abs=1e-7)
    assert res.credible_interval_95 == pytest.approx((0.6830173, 0.9679291), abs=1e-7)
    assert res.details["p_phi_above_half"] == pytest.approx(0.9997988, abs=1e-7)
    assert res.details["p_phi_below_half"] == pytest.approx(1 - 0.9997988, abs=1e-7)
    assert res.a_better_side == "left"
    assert res.decision == "B better"   # A makes 17 of the 19 discordant errors


def test_williams_2026_da_en():
    """§6.2, da-en (A = GNN): p(GNN > LLM) 0.571, p(=) 0.429, p(GNN < LLM) 0.00004."""
    r = williams_table1()["da-en"]
    res = bayesian_mcnemar(r["n01"], r["n10"])
    assert res.posterior_mean == pytest.approx(0.45, abs=0.01)   # "around 0.45"
    assert res.p_a_better == pytest.approx(0.571, abs=5e-4)
    assert res.p_equivalent == pytest.approx(0.429, abs=5e-4)
    assert res.p_b_better == pytest.approx(0.00004, abs=5e-6)
    assert res.p_left == res.p_a_better
    assert res.decision == "undecided"


def test_williams_2026_tr_en():
    """§6.2, tr-en: p(GNN > LLM) 0.000005, p(=) 0.004, p(GNN < LLM) 0.996: LLM better."""
    r = williams_table1()["tr-en"]
    res = bayesian_mcnemar(r["n01"], r["n10"])
    assert res.posterior_mean == pytest.approx(0.68, abs=0.01)
    assert res.p_a_better == pytest.approx(0.000005, abs=5e-7)
    assert res.p_equivalent == pytest.approx(0.004, abs=5e-4)
    assert res.p_b_better == pytest.approx(0.996, abs=5e-4)
    assert res.decision == "B better"


def test_williams_2026_only_tr_en_is_decided():
    """§6.2: "tr-en is the only pair where such a conclusion can be made"."""
    decisions = {k: bayesian_mcnemar(r["n01"], r["n10"]).decision
                 for k, r in williams_table1().items()}
    assert {k for k, d in decisions.items() if d != "undecided"} == {"tr-en"}


def test_lacoste_theorem_4_1_against_dirichlet_sampling():
    """Pr(A better) = B_c(1/2; a01 + n01, a10 + n10) from the full Dirichlet posterior."""
    n00, n01, n10, n11 = 40, 12, 20, 100
    rng = np.random.default_rng(0)
    theta = rng.dirichlet([1 + n00, 1 + n01, 1 + n10, 1 + n11], size=400_000)
    mc = np.mean(theta[:, 1] < theta[:, 2])
    res = bayesian_mcnemar(n01, n10)
    assert res.details["p_phi_below_half"] == pytest.approx(mc, abs=4e-3)
    phi = theta[:, 1] / (theta[:, 1] + theta[:, 2])
    assert np.mean(phi < res.rope[0]) == pytest.approx(res.p_left, abs=4e-3)


def test_default_rope_is_williams_eq_7():
    res = bayesian_mcnemar(30, 70)
    m = 31 / 102
    s = np.sqrt(m * (1 - m))
    assert res.rope == pytest.approx((0.5 - 0.1 * s, 0.5 + 0.1 * s))
    assert default_phi_rope(0.5) == pytest.approx((0.45, 0.55))
    post = stats.beta(31, 71)
    assert res.p_left == pytest.approx(post.cdf(res.rope[0]))
    assert res.p_right == pytest.approx(post.sf(res.rope[1]))
    assert res.p_left + res.p_rope + res.p_right == pytest.approx(1.0)


def test_user_rope_and_prior():
    res = bayesian_mcnemar(30, 70, rope=0.05, prior=(0.5, 0.5))
    assert res.rope == (0.45, 0.55)
    assert res.details["alpha"] == 30.5 and res.details["beta"] == 70.5
    assert bayesian_mcnemar(30, 70, rope=(0.4, 0.6)).rope == (0.4, 0.6)
    no_rope = bayesian_mcnemar(30, 70, rope=0)
    assert no_rope.p_rope == 0.0
    assert no_rope.p_left == pytest.approx(no_rope.details["p_phi_below_half"])


def test_no_discordant_examples_gives_the_prior():
    res = bayesian_mcnemar(0, 0)
    assert res.posterior_mean == 0.5
    assert res.p_rope == pytest.approx(0.1)      # uniform prior on [0.45, 0.55]
    assert res.decision == "undecided"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2000), st.integers(0, 2000), st.floats(0.2, 3.0))
def test_swapping_a_and_b_mirrors(n01, n10, alpha):
    ab = bayesian_mcnemar(n01, n10, prior=(alpha, alpha))
    ba = bayesian_mcnemar(n10, n01, prior=(alpha, alpha))
    assert ab.p_a_better == pytest.approx(ba.p_b_better, abs=1e-12)
    assert ab.p_equivalent == pytest.approx(ba.p_equivalent, abs=1e-9)
    assert ab.posterior_mean == pytest.approx(1 - ba.posterior_mean)
    assert ab.rope == pytest.approx((1 - ba.rope[1], 1 - ba.rope[0]))
    mirror = {"A better": "B better", "B better": "A better"}
    assert mirror.get(ab.decision, ab.decision) == ba.decision


@pytest.mark.parametrize("kwargs, match", [
    ({"prior": (0, 1)}, "positive"), ({"prior": (1, 1, 1)}, "two positive"),
    ({"rope": 0.7}, r"\[0, 0.5\]"), ({"rope": (0.55, 0.6)}, "0.5"),
    ({"threshold": 1.5}, "threshold")])
def test_bad_options(kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        bayesian_mcnemar(3, 4, **kwargs)


def test_bad_counts():
    with pytest.raises(InvalidInputError, match="non-negative"):
        bayesian_mcnemar(-3, 4)
    with pytest.raises(InvalidInputError, match="single"):
        bayesian_mcnemar([3, 4], 4)


def test_beta_regions_kernel_against_scipy_and_the_scalar_test():
    from outperform.bayes._beta_mixture import beta_regions

    rng = np.random.default_rng(5)
    n01, n10 = rng.integers(0, 300, 40), rng.integers(0, 300, 40)
    alpha, beta = n01 + 1.0, n10 + 1.0
    low = 0.5 - rng.uniform(0, 0.1, 40)
    high = 1 - low
    regions = beta_regions(alpha, beta, (low, high))
    # scipy.stats.beta's tails (the kernel skips only tails below 5e-18).
    np.testing.assert_allclose(regions[:, 0], stats.beta.cdf(low, alpha, beta),
                               rtol=1e-12, atol=5e-18)
    np.testing.assert_allclose(regions[:, 2], stats.beta.sf(high, alpha, beta),
                               rtol=1e-12, atol=5e-18)
    # A batch of posteriors, one ROPE each, gives the bits of the scalar test.
    for i in range(40):
        res = bayesian_mcnemar(n01[i], n10[i], rope=(low[i], high[i]))
        assert regions[i].tolist() == [res.p_left, res.p_rope, res.p_right]
