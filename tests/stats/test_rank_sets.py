"""Rank confidence sets (Mogstad, Romano, Shaikh & Wilhelm 2024): reference, peers, properties."""
import numpy as np
import pytest

from outperform import InvalidInputError, TooFewError
from outperform.stats import clustered_mean, pairwise_ttest, rank_sets


def _reference(y, n_resamples, seed, alpha=0.05, stepdown=True):
    """Plain implementation: one resample at a time, families and step-down as in csranks.

    The resampling weights are drawn as the kernel draws them (one batch: the multinomial
    counts of ``rng.integers(0, n, size=(B, n), dtype=np.uint32)``), then everything is float64 and loops.
    """
    n, k = y.shape
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_resamples, n), dtype=np.uint32)
    mean = y.mean(axis=0)
    u = y - mean
    cov = u.T @ u / (n - 1) / n
    se = np.sqrt(np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov)
    np.fill_diagonal(se, 1.0)
    t_hat = (mean[:, None] - mean[None, :]) / se
    boot = []
    for b in range(n_resamples):  # Arena-style: resample, recompute, one at a time
        d = y[idx[b]].mean(axis=0) - mean
        boot.append((d[:, None] - d[None, :]) / se * np.sqrt(n / (n - 1)))   # plug-in se
    boot = np.array(boot)                                    # (B, k, k): T*_jm
    pairs = ~np.eye(k, dtype=bool)

    def run(family):
        rejected = np.zeros((k, k), dtype=bool)
        while True:
            active = family & ~rejected
            crit = np.quantile(boot[:, active].max(axis=1), 1 - alpha)
            new = active & (t_hat > crit)
            rejected |= new
            if not (stepdown and new.any()):
                return rejected, crit

    sim, crit = run(pairs)
    marginal = np.zeros((k, 2), dtype=int)
    for j in range(k):
        family = np.zeros((k, k), dtype=bool)
        family[j], family[:, j] = True, True
        rej, _ = run(family & pairs)
        marginal[j] = 1 + rej[:, j].sum(), k - rej[j].sum()
    ranks = np.array([1 + (y[idx[b]].mean(axis=0)[None, :] > y[idx[b]].mean(axis=0)[:, None])
                      .sum(axis=1) for b in range(n_resamples)])
    percentile = np.quantile(ranks, [alpha / 2, 1 - alpha / 2], axis=0,
                             method="inverted_cdf").T
    return np.column_stack([1 + sim.sum(axis=0), k - sim.sum(axis=1)]), marginal, percentile, crit


@pytest.mark.parametrize("stepdown", [True, False])
@pytest.mark.parametrize("seed", [0, 5])   # the step-down narrows simultaneous / marginal sets
def test_equals_a_plain_loop_over_resamples(seed, stepdown):
    rng = np.random.default_rng(seed)
    y = rng.normal([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], 1.0, size=(400, 6))
    res = rank_sets(y, n_resamples=600, random_state=11, stepdown=stepdown)
    sim, marg, pct, crit = _reference(y, 600, 11, stepdown=stepdown)
    np.testing.assert_array_equal(res.simultaneous, sim)
    np.testing.assert_array_equal(res.marginal, marg)
    np.testing.assert_array_equal(res.percentile, pct)
    assert res.critical_value == pytest.approx(crit, rel=1e-5)   # float32 bootstrap means


def test_stepdown_only_narrows_the_sets():
    rng = np.random.default_rng(0)
    y = rng.normal([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], 1.0, size=(400, 6))
    step = rank_sets(y, n_resamples=600, random_state=11)
    single = rank_sets(y, n_resamples=600, random_state=11, stepdown=False)
    for kind in ("simultaneous", "marginal"):
        a, b = getattr(step, kind), getattr(single, kind)
        assert (a[:, 0] >= b[:, 0]).all() and (a[:, 1] <= b[:, 1]).all()
    assert (step.simultaneous != single.simultaneous).any()
    assert step.critical_value < single.critical_value


def _peer_data():
    rng = np.random.default_rng(2024)
    return rng.normal([0.0, 0.0, 0.1, 0.15, 0.3, 0.3, 0.5, 0.8], 1.0, size=(2000, 8))


@pytest.mark.slow
@pytest.mark.parametrize("stepdown", [False, True])
def test_rank_sets_equal_csranks(stepdown):
    # R package csranks 1.2.x (github.com/danielwilhelm/R-CS-ranks), on the means and their
    # covariance np.cov(y, rowvar=False) / n of the same data (its bootstrap is parametric):
    #   csranks(x, S, coverage=0.95, simul=TRUE,  stepdown=sd, R=100000, seed=1)
    #   csranks(x, S, coverage=0.95, simul=FALSE, stepdown=sd, R=100000, seed=1)
    # gave, for sd = FALSE and TRUE alike:
    simul = [[6, 8], [6, 8], [5, 8], [5, 6], [3, 4], [3, 4], [2, 2], [1, 1]]
    marginal = [[7, 8], [6, 8], [5, 7], [5, 6], [3, 4], [3, 4], [2, 2], [1, 1]]
    res = rank_sets(_peer_data(), n_resamples=20000, random_state=0, stepdown=stepdown)
    assert res.simultaneous.tolist() == simul
    assert res.marginal.tolist() == marginal


@pytest.mark.slow
def test_single_step_critical_value_near_csranks():
    # csranks:::csdiffmeans(x, S, coverage=0.95, cstype="symmetric", stepdown=FALSE,
    #                       R=100000, seed=1): (x_1 - x_2 - L[1, 2]) / sd_12 = 3.023548,
    # the 95% quantile of max |T| over the 28 pairs by a parametric bootstrap. Ours is the
    # nonparametric one on the same data; 20,000 resamples give it to about 0.5%.
    res = rank_sets(_peer_data(), n_resamples=20000, random_state=0, stepdown=False)
    assert res.critical_value == pytest.approx(3.023548, rel=0.01)


def test_huge_samples_give_the_true_ranks():
    rng = np.random.default_rng(0)
    means = np.array([0.3, 0.1, 0.5, 0.2, 0.4])
    y = rng.normal(means, 1.0, size=(100_000, 5))
    res = rank_sets(y, n_resamples=300, random_state=1)
    truth = 1 + (means[None, :] > means[:, None]).sum(axis=1)
    for kind in ("simultaneous", "marginal", "percentile"):
        np.testing.assert_array_equal(getattr(res, kind), np.column_stack([truth, truth]))
    assert res.rank.tolist() == truth.tolist()


def test_equal_means_give_overlapping_sets():
    rng = np.random.default_rng(1)
    y = rng.normal([0.0, 0.5, 0.5, 1.0], 1.0, size=(50_000, 4))
    res = rank_sets(y, n_resamples=500, random_state=2)
    # models 1 and 2 tie for ranks 2-3; both sets hold both ranks, the others are exact
    assert res.simultaneous.tolist() == [[4, 4], [2, 3], [2, 3], [1, 1]]
    assert not res.better[1, 2] and not res.better[2, 1]
    assert res.top_k(2) == ("model 3", "model 1", "model 2") or \
        res.top_k(2) == ("model 3", "model 2", "model 1")


def test_invariant_to_the_order_of_the_models():
    rng = np.random.default_rng(4)
    y = rng.normal([0.0, 0.1, 0.2, 0.2, 0.35, 0.5], 1.0, size=(500, 6))
    perm = np.array([3, 0, 5, 1, 4, 2])
    a = rank_sets(y, n_resamples=800, random_state=7)
    b = rank_sets(y[:, perm], n_resamples=800, random_state=7)
    for kind in ("simultaneous", "marginal", "percentile"):
        np.testing.assert_array_equal(getattr(a, kind)[perm], getattr(b, kind))
    np.testing.assert_array_equal(a.better[np.ix_(perm, perm)], b.better)
    assert a.critical_value == pytest.approx(b.critical_value, rel=1e-6)


def test_lower_is_better_mirrors_higher_is_better():
    rng = np.random.default_rng(5)
    y = rng.normal([0.0, 0.1, 0.2, 0.3], 1.0, size=(500, 4))
    a = rank_sets(y, n_resamples=500, random_state=3)
    b = rank_sets(-y, n_resamples=500, random_state=3, higher_is_better=False)
    for kind in ("simultaneous", "marginal", "percentile", "rank", "better"):
        np.testing.assert_array_equal(getattr(a, kind), getattr(b, kind))
    np.testing.assert_allclose(a.estimate, -b.estimate)


def test_singleton_clusters_resample_like_items():
    rng = np.random.default_rng(6)
    y = rng.normal([0.0, 0.1, 0.2, 0.3], 1.0, size=(300, 4))
    items = rank_sets(y, n_resamples=400, random_state=9)
    # singleton clusters with any labels, numbered in order of first appearance
    labels = np.array([f"c{i}" for i in rng.permutation(300)])
    clusters = rank_sets(y, clusters=labels, n_resamples=400, random_state=9)
    for kind in ("simultaneous", "marginal", "percentile", "better"):
        np.testing.assert_array_equal(getattr(items, kind), getattr(clusters, kind))
    assert items.critical_value == pytest.approx(clusters.critical_value, rel=1e-6)
    np.testing.assert_allclose(items.standard_error, clusters.standard_error)
    assert clusters.unit == "cluster" and clusters.n_clusters == 300


def test_standard_errors_are_the_cluster_robust_ones():
    rng = np.random.default_rng(7)
    clusters = np.repeat(np.arange(60), rng.integers(1, 8, size=60))
    n = clusters.size
    shared = rng.normal(0, 1, size=(60, 1))[clusters]          # a cluster effect
    y = 0.6 * shared + rng.normal([0.0, 0.1, 0.3], 1.0, size=(n, 3))
    res = rank_sets(y, clusters=clusters, n_resamples=200, random_state=0)
    ref = clustered_mean(y, clusters)
    np.testing.assert_allclose(res.standard_error, ref.standard_error, rtol=1e-12)
    np.testing.assert_allclose(res.design_effect, ref.design_effect, rtol=1e-12)
    pw = pairwise_ttest(y, clusters=clusters)
    for j, m in [(0, 1), (0, 2), (1, 2)]:
        diff = clustered_mean(y[:, j] - y[:, m], clusters)
        assert pw.details["standard_error"][j, m] == pytest.approx(diff.standard_error[0],
                                                                   rel=1e-12)


def test_pairwise_ttest_equals_statsmodels_cluster_ols():
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(8)
    clusters = np.repeat(np.arange(40), 5)
    y = 0.5 * rng.normal(size=(40, 1))[clusters] + rng.normal([0.0, 0.2], 1.0, size=(200, 2))
    pw = pairwise_ttest(y, clusters=clusters)
    fit = sm.OLS(y[:, 0] - y[:, 1], np.ones(200)).fit(
        cov_type="cluster", cov_kwds={"groups": clusters}, use_t=True)
    assert pw.statistic[0, 1] == pytest.approx(fit.tvalues[0], rel=1e-10)
    assert pw.pvalue[0, 1] == pytest.approx(fit.pvalues[0], rel=1e-10)   # t with G - 1 df


def test_pairwise_ttest_without_clusters_is_scipy_ttest_rel_with_holm():
    from scipy import stats
    from statsmodels.stats.multitest import multipletests
    rng = np.random.default_rng(9)
    y = rng.normal([0.0, 0.1, 0.25, 0.3], 1.0, size=(120, 4))
    pw = pairwise_ttest(y, names=list("abcd"))
    iu = np.triu_indices(4, 1)
    p = [stats.ttest_rel(y[:, i], y[:, j]).pvalue for i, j in zip(*iu)]
    np.testing.assert_allclose(pw.pvalue[iu], p, rtol=1e-10)
    np.testing.assert_allclose(pw.pvalue_adjusted[iu], multipletests(p, method="holm")[1],
                               rtol=1e-10)


def test_poisson_weights_agree_with_multinomial():
    y = _peer_data()
    a = rank_sets(y, n_resamples=4000, random_state=0, weights="poisson")
    assert a.simultaneous.tolist() == rank_sets(y, n_resamples=4000, random_state=0)\
        .simultaneous.tolist()
    assert a.weights == "poisson"


def test_constant_differences_are_certain_and_identical_models_tie():
    rng = np.random.default_rng(10)
    base = rng.integers(0, 2, size=500).astype(float)
    y = np.column_stack([base, base, base + 0.01, rng.integers(0, 2, size=500)])
    res = rank_sets(y, n_resamples=300, random_state=0)
    assert res.better[2, 0] and res.better[2, 1]          # +0.01 on every item: certain
    assert not res.better[0, 1] and not res.better[1, 0]  # the same scores: tied
    assert res.simultaneous[0].tolist() == res.simultaneous[1].tolist()


def test_tiers_and_top_k():
    rng = np.random.default_rng(11)
    y = rng.normal([1.0, 1.0, 0.5, 0.5, 0.0], 0.5, size=(20_000, 5))
    res = rank_sets(y, names=list("abcde"), n_resamples=300, random_state=0)
    assert res.tiers().tolist() == [1, 1, 2, 2, 3]
    assert set(res.top_k(1)) == {"a", "b"} and set(res.top_k(3)) == {"a", "b", "c", "d"}
    frame = res.to_frame()
    assert list(frame["model"][:2]) in (["a", "b"], ["b", "a"])
    assert res.to_dict()["models"][0]["simultaneous"] == [1, 2]


def test_pickles():
    import pickle
    res = rank_sets(_peer_data()[:200], n_resamples=100, random_state=0)
    back = pickle.loads(pickle.dumps(res))
    np.testing.assert_array_equal(back.simultaneous, res.simultaneous)


@pytest.mark.parametrize("kwargs, error", [
    (dict(scores=[[1.0, np.nan], [0.0, 1.0]]), InvalidInputError),
    (dict(scores=np.ones((5, 1))), TooFewError),
    (dict(scores=np.ones((1, 3))), TooFewError),
    (dict(scores=np.ones((5, 3)), n_resamples=10), InvalidInputError),
    (dict(scores=np.ones((5, 3)), weights="bayes"), InvalidInputError),
    (dict(scores=np.ones((5, 3)), clusters=[0, 0, 0, 0, 0]), TooFewError),
    (dict(scores=np.ones((5, 3)), clusters=[0, 1]), InvalidInputError),
    (dict(scores=np.ones((5, 3)), alpha=1.5), InvalidInputError),
])
def test_bad_input_is_refused(kwargs, error):
    with pytest.raises(error):
        rank_sets(**kwargs)


def test_bool_scores_equal_float_scores():
    # 0/1 scores take the exact integer (popcount) path for the standard errors; 1e-9 added
    # to one column sends the same data down the float path
    x = np.random.default_rng(12).random((3000, 5)) < [0.5, 0.52, 0.55, 0.6, 0.6]
    shifted = x.astype(float) + np.r_[0.0, 0.0, 0.0, 0.0, 1e-9]
    a = rank_sets(x, n_resamples=300, random_state=0)
    b = rank_sets(shifted, n_resamples=300, random_state=0)
    np.testing.assert_allclose(a.standard_error, b.standard_error, rtol=1e-9)
    np.testing.assert_array_equal(a.simultaneous, b.simultaneous)
    np.testing.assert_allclose(pairwise_ttest(x).details["standard_error"],
                               pairwise_ttest(shifted).details["standard_error"], rtol=1e-9)


def test_rank_sets_equal_csranks_live(tmp_path):
    """The same comparison run live when R and csranks are installed (R_LIBS may point at
    a library holding it: csranks is on CRAN, not in Debian)."""
    import shutil
    import subprocess

    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed")
    if subprocess.run(["Rscript", "-e", "library(csranks)"], capture_output=True).returncode:
        pytest.skip("the R package csranks is not installed")
    y = _peer_data()
    np.savetxt(tmp_path / "m.csv", y.mean(axis=0), delimiter=",")
    np.savetxt(tmp_path / "S.csv", np.cov(y, rowvar=False) / len(y), delimiter=",")
    script = f"""library(csranks)
x <- scan("{tmp_path / 'm.csv'}", quiet=TRUE)
S <- as.matrix(read.csv("{tmp_path / 'S.csv'}", header=FALSE))
s <- csranks(x, S, coverage=0.95, simul=TRUE, R=20000, seed=1)
m <- csranks(x, S, coverage=0.95, simul=FALSE, R=20000, seed=1)
cat(s$L, s$U, m$L, m$U)"""
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True, check=True)
    values = np.array(out.stdout.split(), dtype=int).reshape(4, 8)
    res = rank_sets(y, n_resamples=20000, random_state=0)
    np.testing.assert_array_equal(res.simultaneous, values[:2].T)
    np.testing.assert_array_equal(res.marginal, values[2:].T)
