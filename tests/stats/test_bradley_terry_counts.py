"""Bradley–Terry on battles aggregated into counts = on the battles themselves.

The fit, both covariances and the bootstrap run on the distinct (model_a, model_b, winner)
rows with their counts (``counts=``, :func:`outperform.data.battle_counts`); these tests
check that this is the fit on the battles (to 1e-10), and that resampling the counts
multinomially is, in distribution, resampling the battles.
"""
import numpy as np
import pytest
from scipy import stats

from _battles import random_battles
from outperform.compare import bradley_terry as bt_table
from outperform.data import battle_counts
from outperform.stats import bradley_terry


def _battles(seed=4, m=5, n=600, tie_rate=0.2):
    return random_battles(seed, m, n, tie_rate, sd=0.7, ties=("tie", "tie (bothbad)"))


FIELDS = ("abilities", "covariance", "robust_covariance", "ratings", "rating_low",
          "rating_high", "rating_standard_error", "wins", "losses", "ties_count")


@pytest.mark.parametrize("ties", ["davidson", "half"])
def test_fit_on_counts_equals_fit_on_rows(ties):
    df = _battles()
    side = df["winner"].map({"model_a": "a", "model_b": "b"}).fillna("tie")
    rows = bradley_terry(df["model_a"], df["model_b"], side, ties=ties)
    counts = battle_counts(df)
    assert counts["count"].sum() == len(df) and len(counts) < len(df)
    on_counts = bradley_terry(counts["model_a"], counts["model_b"], counts["winner"],
                              counts=counts["count"], ties=ties)
    for field in FIELDS:
        np.testing.assert_allclose(getattr(on_counts, field), getattr(rows, field),
                                   rtol=1e-10, atol=1e-10, err_msg=field)
    if ties == "davidson":
        assert on_counts.tie_parameter == pytest.approx(rows.tie_parameter, rel=1e-10)
        assert on_counts.tie_parameter_se == pytest.approx(rows.tie_parameter_se, rel=1e-10)
    assert on_counts.log_likelihood == pytest.approx(rows.log_likelihood, rel=1e-12)
    # the table-level call (which aggregates) is the same fit
    table = bt_table(df, ties=ties)
    np.testing.assert_allclose(table.robust_covariance, rows.robust_covariance, atol=1e-10)


def test_counts_with_weights_equal_the_expanded_rows():
    df = _battles(seed=5, n=300)
    df["weight"] = np.random.default_rng(1).choice([0.5, 1.0, 2.0], len(df))
    counts = battle_counts(df)
    assert counts["count"].sum() == len(df)
    side = df["winner"].map({"model_a": "a", "model_b": "b"}).fillna("tie")
    rows = bradley_terry(df["model_a"], df["model_b"], side, weights=df["weight"],
                         interval="bootstrap", n_resamples=50, random_state=3)
    on_counts = bradley_terry(counts["model_a"], counts["model_b"], counts["winner"],
                              weights=counts["weight"], counts=counts["count"],
                              interval="bootstrap", n_resamples=50, random_state=3)
    np.testing.assert_allclose(on_counts.abilities, rows.abilities, atol=1e-10)
    np.testing.assert_allclose(on_counts.robust_covariance, rows.robust_covariance, atol=1e-10)
    # the same battle types with the same counts: the same multinomial draws
    np.testing.assert_allclose(on_counts.bootstrap_ratings, rows.bootstrap_ratings, atol=1e-8)


def test_orientation_and_order_of_battles_do_not_matter():
    # a battle (x, y, x won) is the battle (y, x, y won); rows in any order
    df = _battles(seed=6)
    side = df["winner"].map({"model_a": "a", "model_b": "b"}).fillna("tie").to_numpy()
    one = bradley_terry(df["model_a"], df["model_b"], side)
    flip = np.random.default_rng(0).random(len(df)) < 0.5
    a = np.where(flip, df["model_b"], df["model_a"])
    b = np.where(flip, df["model_a"], df["model_b"])
    w = np.where(flip & (side != "tie"), np.where(side == "a", "b", "a"), side)
    order = np.random.default_rng(1).permutation(len(df))
    two = bradley_terry(a[order], b[order], w[order])
    np.testing.assert_allclose(two.abilities, one.abilities, atol=1e-10)
    np.testing.assert_allclose(two.robust_covariance, one.robust_covariance, atol=1e-10)


@pytest.mark.parametrize("bad", [[1.5, 1, 1], [-1, 1, 1], [np.nan, 1, 1], [1, 1]])
def test_counts_must_be_whole_and_one_per_row(bad):
    from outperform import InvalidInputError

    with pytest.raises(InvalidInputError, match="counts must be whole numbers"):
        bradley_terry(["x", "y", "x"], ["y", "z", "z"], ["a", "b", "tie"], counts=bad)


@pytest.mark.slow
@pytest.mark.parametrize("ties", ["davidson", "half"])
def test_multinomial_bootstrap_on_counts_matches_the_row_bootstrap(ties):
    """Both bootstraps at R = 400 resamples: a two-sample KS test per model, and the SDs.

    Tolerance of the SDs: the sample SD of R draws from a near-normal distribution has
    relative standard error 1/sqrt(2(R - 1)); two independent ones differ relatively by
    about sqrt(2) times that, 1/sqrt(R - 1) = 0.050 at R = 400. 4 such errors (0.20) bound
    a true-zero difference for each of the m - 1 free ratings with probability 1 - 6e-5
    (normal tails); the KS test at level 1e-3 per model. Both are seeded: the outcome is
    fixed, the tolerances say why it is not luck.
    """
    df = _battles(seed=11, m=4, n=800)
    side = df["winner"].map({"model_a": "a", "model_b": "b"}).fillna("tie").to_numpy()
    r = 400
    counts = bt_table(df, ties=ties, anchor="m0", interval="bootstrap", n_resamples=r,
                      random_state=0)
    assert counts.n_failed_resamples == 0
    rng = np.random.default_rng(12345)
    a, b = df["model_a"].to_numpy(), df["model_b"].to_numpy()
    rows = []
    for _ in range(r):            # the row bootstrap: n battles drawn with replacement
        pick = rng.integers(0, len(df), len(df))
        rows.append(bradley_terry(a[pick], b[pick], side[pick], ties=ties,
                                  anchor="m0").ratings)
    rows = np.array(rows)
    for k in range(1, 4):          # m0 is the anchor (0 spread in both)
        assert stats.ks_2samp(counts.bootstrap_ratings[:, k], rows[:, k]).pvalue > 1e-3
        sd_counts = counts.bootstrap_ratings[:, k].std(ddof=1)
        assert sd_counts == pytest.approx(rows[:, k].std(ddof=1), rel=4 / np.sqrt(r - 1))
