"""The correlated Bayesian t-test of many pairs in one batch (issue 14) gives, pair by pair,
the results of the single-pair call, and Q2 compare() uses it for all pairs."""
import numpy as np
import pandas as pd
import pytest

import outperform
from outperform import InvalidInputError, TooFewError
from outperform.bayes import correlated_bayesian_ttest, correlated_bayesian_ttests


def test_each_row_equals_the_single_pair_call():
    rng = np.random.default_rng(3)
    a = rng.normal(0.8, 0.03, (6, 30))
    b = a - rng.normal(0.005, 0.01, (6, 30))
    b[0] = a[0]                      # all differences 0: the point-mass limit
    b[1] = a[1] - 0.01               # all differences equal, off the ROPE bounds
    ropes = [0.0, 0.01, 0.004, (-0.01, 0.002), 0.0, 0.02]
    batch = correlated_bayesian_ttests(a, b, rho=0.1, ropes=ropes, threshold=0.9)
    for i, res in enumerate(batch):
        one = correlated_bayesian_ttest(a[i], b[i], rho=0.1, rope=ropes[i], threshold=0.9)
        assert res.to_dict() == one.to_dict()
        assert (res.posterior is None) == (one.posterior is None)
        if one.posterior is not None:
            assert res.posterior.ppf(0.3) == one.posterior.ppf(0.3)


def test_bad_batches_are_refused():
    a = np.zeros((2, 5))
    with pytest.raises(InvalidInputError, match="one ROPE per pair"):
        correlated_bayesian_ttests(a, a, rho=0.1, ropes=[0.0])
    with pytest.raises(InvalidInputError, match="finite"):
        correlated_bayesian_ttests(a + np.nan, a, rho=0.1, ropes=[0.0, 0.0])
    with pytest.raises(TooFewError):
        correlated_bayesian_ttests(a[:, :1], a[:, :1], rho=0.1, ropes=[0.0, 0.0])


def test_q2_all_pairs_match_the_single_pair_tests():
    rng = np.random.default_rng(7)
    rows = [dict(task="t", model=m, run=r, fold=f, n_train=90, n_test=10,
                 accuracy=0.8 + 0.01 * k + rng.normal(0, 0.01))
            for r in range(3) for f in range(10) for k, m in enumerate("abcd")]
    table = pd.DataFrame(rows)
    post = outperform.compare(table).posthoc["corrected_t_holm"]
    scores = {m: g.sort_values(["run", "fold"])["accuracy"].to_numpy()
              for m, g in table.groupby("model")}
    for i, a in enumerate("abcd"):
        for j, b in enumerate("abcd"):
            if i < j:
                width = 0.1 * np.std(scores[a] - scores[b], ddof=1)
                one = correlated_bayesian_ttest(scores[a], scores[b], rho=0.1, rope=width)
                assert post.details["p_row_better"][i][j] == one.p_a_better
                assert post.details["p_rope"][i][j] == one.p_rope


def test_one_row_helpers_give_the_batch_kernels_bits():
    # The single-pair calls use float versions of the batch kernels (issue 14, per-call
    # cost); both must do the same arithmetic. Peers: scipy's Student t and Beta quantiles.
    from scipy import special, stats

    from outperform.bayes import _correlated_ttest as ct
    from outperform.bayes import _rope

    rng = np.random.default_rng(11)
    d = rng.normal(0.01, 0.02, (200, 10)) * rng.uniform(0.01, 10, (200, 1))
    d[::17] = 0.003                                  # constant rows
    prior = ct.NormalGammaPrior(mu0=0.01, k0=2.0, a=1.0, b=0.001)
    for rho, pr in ((0.1, ct._MATCHING), (0.0, ct._MATCHING), (1 / 3, prior)):
        loc, df, scale = ct.posterior_parameters(d, rho, pr)
        for i in range(d.shape[0]):
            assert ct.posterior_parameters_1d(d[i], rho, pr) == (loc[i], df[i], scale[i])
    loc, df, scale = ct.posterior_parameters(d, 0.1, prior)
    batch = _rope.student_regions(df, loc, scale, (-0.01, 0.02))
    for i in range(d.shape[0]):
        one = _rope.student_regions_1d(float(df[i]), float(loc[i]), float(scale[i]),
                                       (-0.01, 0.02))
        assert one == tuple(batch[i])
        assert one[0] == stats.t.cdf(-0.01, df[i], loc[i], scale[i])
    a, b = rng.uniform(0.5, 3000, (2, 500))
    np.testing.assert_array_equal(special.betaincinv(a[:, None], b[:, None], [0.025, 0.5]),
                                  stats.beta.ppf([0.025, 0.5], a[:, None], b[:, None]))


def test_corrected_t_of_each_row_equals_the_single_pair_call():
    from outperform import DegenerateDataError
    from outperform.stats import corrected_resampled_ttest, corrected_resampled_ttests

    rng = np.random.default_rng(5)
    for n in (2, 9, 30, 100, 1000):      # row sums must add in the 1-D order at every size
        a = rng.normal(0.8, 0.03, (7, n))
        b = a - rng.normal(0.005, 0.01, (7, n))
        for alternative in ("two-sided", "greater", "less"):
            batch = corrected_resampled_ttests(a, b, rho=0.1, alternative=alternative)
            for i, res in enumerate(batch):
                one = corrected_resampled_ttest(a[i], b[i], rho=0.1, alternative=alternative)
                assert res.to_dict() == one.to_dict()
                assert res.confidence_interval(0.9) == one.confidence_interval(0.9)
    a = np.zeros((2, 5))
    with pytest.raises(DegenerateDataError, match="all 5 fold differences are equal"):
        corrected_resampled_ttests(a, a - 1.0, rho=0.1)
    with pytest.raises(InvalidInputError, match="same shape"):
        corrected_resampled_ttests(a, a[:1], rho=0.1)
    with pytest.raises(InvalidInputError, match="finite"):
        corrected_resampled_ttests(a + np.nan, a, rho=0.1)
    with pytest.raises(TooFewError):
        corrected_resampled_ttests(a[:, :1], a[:, :1], rho=0.1)
