"""PPI++ means: the row kernel equals ppi-python (ppi_py 0.2) on every row, reproduces its
README's warm-up (on synthetic data: the galaxies file is a download), and covers."""
import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.stats._ppi import ppi_mean_estimates

ppi_py = pytest.importorskip("ppi_py")


def _case(rng, n, N, binary):
    y = rng.binomial(1, 0.6, n + N).astype(float)
    f = (np.where(rng.random(n + N) < 0.8, y, 1 - y) if binary
         else np.clip(y + rng.normal(0.1, 0.4, n + N), 0, 1))
    return y[:n], f[:n], f[n:]


@pytest.mark.parametrize("binary", [True, False])
@pytest.mark.parametrize("n, N", [(5, 9), (30, 300), (200, 50)])
def test_rows_equal_ppi_py(binary, n, N):
    rng = np.random.default_rng(n + N + binary)
    cases = [_case(rng, n, N, binary) for _ in range(4)]
    gold = np.array([np.r_[y, np.full(N, np.nan)] for y, _, _ in cases])
    judge = np.array([np.r_[f, fu] for _, f, fu in cases])
    for alpha in (0.1, 0.05):
        out = ppi_mean_estimates(gold, judge, alpha=alpha)
        for b, (y, f, fu) in enumerate(cases):
            # ppi_py.ppi_mean_ci(Y, Yhat, Yhat_unlabeled, alpha=alpha) (lam=None: PPI++)
            lo, hi = ppi_py.ppi_mean_ci(y, f, fu, alpha=alpha)
            assert out["low"][b] == pytest.approx(float(np.ravel(lo)[0]), abs=1e-10)
            assert out["high"][b] == pytest.approx(float(np.ravel(hi)[0]), abs=1e-10)
            est = ppi_py.ppi_mean_pointestimate(y, f, fu)
            assert out["estimate"][b] == pytest.approx(float(np.ravel(est)[0]), abs=1e-10)
            # ppi_mean_pval tunes λ without clipping it to [0, 1] (ppi_py 0.2, unlike its
            # ppi_mean_ci): given the clipped λ the interval used, the p-values agree
            p = ppi_py.ppi_mean_pval(y, f, fu, lam=out["lam"][b])
            assert out["pvalue"][b] == pytest.approx(float(np.ravel(p)[0]), abs=1e-10)
            # lam=1 (original PPI) and the classical interval of the labelled items
            lo1, hi1 = ppi_py.ppi_mean_ci(y, f, fu, alpha=alpha, lam=1)
            one = ppi_mean_estimates(gold[b], judge[b], alpha=alpha, lam=1.0)
            assert (one["low"][0], one["high"][0]) == pytest.approx(
                (float(np.ravel(lo1)[0]), float(np.ravel(hi1)[0])), abs=1e-10)
            clo, chi = ppi_py.classical_mean_ci(y, alpha=alpha)
            z = (chi - clo) / 2 / out["classical_se"][b]
            assert out["classical_mean"][b] == pytest.approx((clo + chi) / 2, abs=1e-12)
            assert z == pytest.approx(
                __import__("scipy").stats.norm.ppf(1 - alpha / 2), abs=1e-9)


def test_readme_warmup_on_synthetic_galaxies():
    # ppi_py's README "Warmup: estimating the mean" runs on the galaxies file, which
    # load_dataset downloads; offline, the same script on a deterministic synthetic
    # stand-in (the README's steps, numbers computed by ppi_py itself).
    rng = np.random.default_rng(0)
    y_total = rng.binomial(1, 0.26, 16743).astype(float)
    yhat_total = np.clip(0.8 * y_total + rng.normal(0.05, 0.15, y_total.size), 0, 1)
    alpha, n = 0.1, 1000
    idx = np.random.default_rng(1).permutation(y_total.shape[0])
    yhat, y, yhat_unlabeled = yhat_total[idx[:n]], y_total[idx[:n]], yhat_total[n:]
    expected = ppi_py.ppi_mean_ci(y, yhat, yhat_unlabeled, alpha=alpha)
    gold = np.r_[y, np.full(yhat_unlabeled.size, np.nan)]
    out = ppi_mean_estimates(gold, np.r_[yhat, yhat_unlabeled], alpha=alpha)
    assert (out["low"][0], out["high"][0]) == pytest.approx(
        tuple(float(np.ravel(v)[0]) for v in expected), abs=1e-10)
    assert out["n_effective"][0] > n        # a good predictor is worth more than its labels


def test_properties_and_errors():
    rng = np.random.default_rng(3)
    y, f, fu = _case(rng, 50, 500, True)
    gold, judge = np.r_[y, np.full(500, np.nan)], np.r_[f, fu]
    out = ppi_mean_estimates(gold, judge)
    assert 0 <= out["lam"][0] <= 1
    # n_eff = n · var_classical / var_PPI (Boyeau et al. 2025)
    assert out["n_effective"][0] == pytest.approx(
        50 * out["classical_se"][0] ** 2 / out["standard_error"][0] ** 2)
    # a constant judge carries nothing: lam = 0, the classical mean
    const = ppi_mean_estimates(gold, np.ones_like(judge))
    assert const["lam"][0] == 0 and const["estimate"][0] == pytest.approx(y.mean())
    # every item labelled: the classical mean
    full = ppi_mean_estimates(np.r_[y, y[:3]], np.r_[f, f[:3]])
    assert full["estimate"][0] == pytest.approx(np.r_[y, y[:3]].mean())
    with pytest.raises(InvalidInputError, match="at least 2 items with a human label"):
        ppi_mean_estimates([1, np.nan, np.nan], [1, 0, 1])
    with pytest.raises(InvalidInputError, match="same shape"):
        ppi_mean_estimates([1, 0], [1, 0, 1])


@pytest.mark.slow
def test_biased_judge_coverage_500_gold_of_10000():
    """A lenient judge (says right to 30% of wrong answers, 90% of right ones) over 10,000
    items, 500 human labels: PPI++ and Rogan–Gladen cover the true rate, the judge alone
    does not."""
    from outperform.stats._rogan_gladen import rogan_gladen_estimates

    rng = np.random.default_rng(2026)
    reps, n_items, n_gold, truth = 2000, 10_000, 500, 0.6
    hits = {"ppi": 0, "judge": 0, "rogan_gladen": 0}
    for _ in range(reps // 200):                         # 200 replications per block
        y = (rng.random((200, n_items)) < truth).astype(float)
        f = np.where(y == 1, rng.random(y.shape) < 0.9, rng.random(y.shape) < 0.3) * 1.0
        gold = np.where(np.arange(n_items) < n_gold, y, np.nan)
        out = ppi_mean_estimates(gold, f, alpha=0.05)
        hits["ppi"] += int(((out["low"] <= truth) & (truth <= out["high"])).sum())
        z = 1.959963984540054
        jlo, jhi = out["judge_mean"] - z * out["judge_se"], out["judge_mean"] + z * out["judge_se"]
        hits["judge"] += int(((jlo <= truth) & (truth <= jhi)).sum())
        rg = rogan_gladen_estimates(gold, f, alpha=0.05)
        hits["rogan_gladen"] += int(((rg["low"] <= truth) & (truth <= rg["high"])).sum())
    coverage = {k: v / reps for k, v in hits.items()}
    print(f"coverage of 95% intervals over {reps} replications: {coverage}")
    assert coverage["ppi"] >= 0.94
    assert coverage["rogan_gladen"] >= 0.94
    assert coverage["judge"] < 0.05
