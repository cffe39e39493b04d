"""Generic calibration and power studies: Monte Carlo errors, parallel and Dask execution."""
import numpy as np
import pytest
from scipy import stats

from outperform import DegenerateDataError, InvalidInputError
from outperform.bayes import correlated_bayesian_ttest
from outperform.simulate import calibration, power, rejection_outcome, seed_sequence
from outperform.stats import paired_ttest, sign_test, wilcoxon

N = 15


def null(rng):
    return rng.normal(0, 1, N), np.zeros(N)


def shifted(effect, rng):
    return rng.normal(effect, 1, N), np.zeros(N)


def test_calibration_of_the_t_test_is_nominal():
    m = 1000
    t = calibration(paired_ttest, null, n_repetitions=m, random_state=0)
    row = t.iloc[0]
    assert row["test"] == "paired_ttest" and row["n_repetitions"] == m
    assert abs(row["rejection_rate"] - 0.05) < 4 * np.sqrt(0.05 * 0.95 / m)
    assert row["mc_se"] == pytest.approx(np.sqrt(row["rejection_rate"] * (1 - row["rejection_rate"])
                                                 / m))
    assert row["calibrated"] and 0.45 < row["mean_pvalue"] < 0.55


def test_power_of_the_t_test_matches_the_noncentral_t():
    effects, m = [0.4, 0.8], 600
    t = power(paired_ttest, shifted, effects, n_repetitions=m, random_state=1)
    crit = stats.t.ppf(0.975, N - 1)
    for effect, (_, row) in zip(effects, t.iterrows()):
        nc = effect * np.sqrt(N)
        exact = stats.nct.sf(crit, N - 1, nc) + stats.nct.cdf(-crit, N - 1, nc)
        assert row["effect"] == effect
        assert abs(row["rejection_rate"] - exact) < 4 * np.sqrt(exact * (1 - exact) / m) + 1e-3


def test_several_tests_share_the_simulated_data():
    tests = {"t": lambda a, b: paired_ttest(a, b, alternative="greater"),
             "bayes": lambda a, b: correlated_bayesian_ttest(a, b, rho=0.0)}
    # The Bayesian t-test with the matching prior rejects (P(A better) > 0.95) exactly when
    # the one-sided t-test has p < 0.05: on the same data the two columns must agree.
    t = calibration(tests, null, n_repetitions=300, random_state=2).set_index("test")
    assert t.loc["t", "rejection_rate"] == t.loc["bayes", "rejection_rate"]
    assert t.loc["t", "mean_pvalue"] == pytest.approx(t.loc["bayes", "mean_pvalue"], abs=1e-9)


def test_effects_reuse_the_same_random_streams():
    t = power({"sign": sign_test, "wilcoxon": wilcoxon}, shifted, [0.3, 0.3],
              n_repetitions=100, random_state=3)
    first, second = t.iloc[:2], t.iloc[2:]
    np.testing.assert_array_equal(first["rejection_rate"], second["rejection_rate"])


def test_results_do_not_depend_on_parallelism():
    # Threads exercise the joblib path; the Dask test below covers another backend. (Loky
    # processes give the same streams too, but cost seconds to start on a busy machine.)
    base = power(paired_ttest, shifted, [0.0, 0.6], n_repetitions=120, random_state=4)
    threads = power(paired_ttest, shifted, [0.0, 0.6], n_repetitions=120, random_state=4,
                    n_jobs=2, backend="threading", progress=True)
    np.testing.assert_array_equal(base["rejection_rate"], threads["rejection_rate"])
    np.testing.assert_allclose(base["mean_pvalue"], threads["mean_pvalue"])


def test_dask_backend_on_a_local_cluster():
    distributed = pytest.importorskip("distributed")
    base = calibration(wilcoxon, null, n_repetitions=80, random_state=5)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        via_name = calibration(wilcoxon, null, n_repetitions=80, random_state=5, n_jobs=-1,
                               backend="dask")
        via_client = calibration(wilcoxon, null, n_repetitions=80, random_state=5, n_jobs=-1,
                                 backend=client)
    for other in (via_name, via_client):
        assert other.loc[0, "rejection_rate"] == base.loc[0, "rejection_rate"]


def test_dask_backend_without_a_client_says_what_to_do():
    pytest.importorskip("distributed")
    with pytest.raises(InvalidInputError, match="Client"):
        calibration(wilcoxon, null, n_repetitions=5, backend="dask")


def test_errors_of_a_test_raise_or_are_counted():
    def fragile(a, b):
        if a[0] > 1:
            raise DegenerateDataError("pretend the data were degenerate")
        return paired_ttest(a, b)

    with pytest.raises(DegenerateDataError):
        calibration(fragile, null, n_repetitions=100, random_state=6)
    t = calibration(fragile, null, n_repetitions=400, random_state=6, on_error="skip")
    assert 0 < t.loc[0, "n_errors"] < 400
    assert t.loc[0, "n_repetitions"] + t.loc[0, "n_errors"] == 400


def test_generators_may_return_dicts_and_single_objects():
    t = calibration(lambda d: float(stats.ttest_1samp(d, 0).pvalue),
                    lambda rng: rng.normal(0, 1, 10), n_repetitions=50, random_state=7)
    u = calibration(lambda x, y: paired_ttest(x, y),
                    lambda rng: {"x": rng.normal(0, 1, 10), "y": np.zeros(10)},
                    n_repetitions=50, random_state=7)
    assert t.loc[0, "rejection_rate"] == u.loc[0, "rejection_rate"]


def test_rejection_outcome():
    assert rejection_outcome(0.01, 0.05) == (0.01, True)
    p, reject = rejection_outcome(True, 0.05)
    assert np.isnan(p) and reject
    res = correlated_bayesian_ttest([1, 2, 3, 4], [0, 0, 0, 0], rho=0.0)
    assert rejection_outcome(res, 0.05) == (pytest.approx(1 - res.p_right), res.p_right > 0.95)
    with pytest.raises(InvalidInputError, match="outside"):
        rejection_outcome(1.5, 0.05)
    with pytest.raises(InvalidInputError, match="FrequentistResult"):
        rejection_outcome("0.01", 0.05)


def test_seed_sequence():
    assert seed_sequence(3).entropy == 3
    assert seed_sequence(np.random.default_rng(1)).entropy == seed_sequence(
        np.random.default_rng(1)).entropy
    with pytest.raises(InvalidInputError, match="random_state"):
        seed_sequence(-1)


@pytest.mark.parametrize("kwargs, match", [
    ({"test": "t"}, "function"),
    ({"test": {}}, "function"),
    ({"null_generator": 3}, "generator"),
    ({"alpha": 1.5}, "alpha"),
    ({"n_repetitions": 0}, "n_repetitions"),
    ({"n_jobs": 0}, "n_jobs"),
    ({"backend": "spark"}, "backend"),
    ({"on_error": "ignore"}, "on_error"),
])
def test_bad_input(kwargs, match):
    args = {"test": paired_ttest, "null_generator": null, "n_repetitions": 5, **kwargs}
    test, gen = args.pop("test"), args.pop("null_generator")
    with pytest.raises(InvalidInputError, match=match):
        calibration(test, gen, **args)


def test_power_needs_a_grid():
    with pytest.raises(InvalidInputError, match="effect_grid"):
        power(paired_ttest, shifted, [], n_repetitions=5)
