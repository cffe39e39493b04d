"""Bradley–Terry with Davidson ties: peers (R's BradleyTerry2, statsmodels) and properties."""
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from _battles import random_battles
from outperform import DegenerateDataError, InvalidInputError
from outperform.compare import bradley_terry as bt_table
from outperform.data import read_battles
from outperform.stats import bradley_terry

ELO = 400 / np.log(10)

# BradleyTerry2's `citations` (Stigler 1994): citations[i, j] = times journal j cites i, so
# journal i "wins" against j. R 4.2, BradleyTerry2 1.1.2:
#   d <- countsToBinomial(citations)
#   fit <- BTm(cbind(win1, win2), player1, player2, data = d,
#              control = glm.control(epsilon = 1e-14, maxit = 100))
#   formatC(coef(fit), digits = 12, format = "f"); sqrt(diag(vcov(fit)))
CITATIONS = {("Biometrika", "Comm Statist"): (730, 33), ("Biometrika", "JASA"): (498, 320),
             ("Biometrika", "JRSS-B"): (221, 284), ("Comm Statist", "JASA"): (68, 813),
             ("Comm Statist", "JRSS-B"): (17, 276), ("JASA", "JRSS-B"): (142, 325)}
R_ABILITY = [0.0, -2.949072496844, -0.479569769752, 0.268954055819]
R_SE = [0.0, 0.102545335511, 0.060588729248, 0.070829965111]


def _citation_battles():
    rows = [(p1, p2, w, n) for (p1, p2), (w1, w2) in CITATIONS.items()
            for w, n in (("a", w1), ("b", w2))]
    return pd.DataFrame(rows, columns=["model_a", "model_b", "winner", "weight"])


def _random_battles(seed=3, m=6, n=400, tie_rate=0.0):
    return random_battles(seed, m, n, tie_rate, sd=0.8, wins=("a", "b"), prefix="model")


def test_citations_match_bradleyterry2():
    res = bt_table(_citation_battles())
    assert res.models == ("Biometrika", "Comm Statist", "JASA", "JRSS-B")
    assert res.ties == "none" and res.tie_parameter is None
    np.testing.assert_allclose(res.abilities, R_ABILITY, atol=1e-6)
    np.testing.assert_allclose(res.standard_error, R_SE, atol=1e-6)


def _has_bradleyterry2():
    if shutil.which("Rscript") is None:
        return False
    return subprocess.run(["Rscript", "-e", "library(BradleyTerry2)"],
                          capture_output=True).returncode == 0


R_RANDOM = """
library(BradleyTerry2)
d <- read.csv("{path}", stringsAsFactors = FALSE)
lev <- sort(unique(c(d$model_a, d$model_b)))
d$model_a <- factor(d$model_a, levels = lev); d$model_b <- factor(d$model_b, levels = lev)
d$win <- as.integer(d$winner == "a")
fit <- BTm(cbind(win, 1 - win), model_a, model_b, data = d,
           control = glm.control(epsilon = 1e-14, maxit = 100))
cat(sprintf("%.12f", coef(fit)), "\\n")
cat(sprintf("%.12f", sqrt(diag(vcov(fit)))), "\\n")
"""


@pytest.mark.slow
@pytest.mark.skipif(not _has_bradleyterry2(), reason="Rscript with BradleyTerry2 is absent")
def test_random_battles_match_bradleyterry2_live(tmp_path):
    df = _random_battles()
    path = tmp_path / "battles.csv"
    df.to_csv(path, index=False)
    out = subprocess.run(["Rscript", "-e", R_RANDOM.format(path=path)], capture_output=True,
                         text=True, check=True).stdout.strip().splitlines()
    coef, se = (np.array([float(v) for v in line.split()]) for line in out)
    res = bt_table(path)
    np.testing.assert_allclose(res.abilities[1:], coef, atol=1e-6)
    np.testing.assert_allclose(res.standard_error[1:], se, atol=1e-6)


def _design(df, models):
    """Battle-level design of plain Bradley–Terry: +1 for model_a, -1 for model_b."""
    pos = {m: k for k, m in enumerate(models)}
    x = np.zeros((len(df), len(models)))
    x[np.arange(len(df)), df["model_a"].map(pos)] = 1
    x[np.arange(len(df)), df["model_b"].map(pos)] -= 1
    return x[:, 1:]     # reference (first model) removed


def test_model_and_sandwich_covariance_match_statsmodels_logit():
    sm = pytest.importorskip("statsmodels.api")
    df = _random_battles(seed=5, m=5, n=300)
    res = bt_table(df)
    y = (df["winner"] == "a").to_numpy(float)
    # statsmodels.api.Logit(y, X).fit(cov_type="HC0"): the sandwich with battles as units
    fit = sm.Logit(y, _design(df, res.models)).fit(disp=0, tol=1e-12)
    robust = sm.Logit(y, _design(df, res.models)).fit(disp=0, tol=1e-12, cov_type="HC0")
    np.testing.assert_allclose(res.abilities[1:], fit.params, atol=1e-6)
    np.testing.assert_allclose(res.covariance[1:, 1:], fit.cov_params(), atol=1e-7)
    np.testing.assert_allclose(res.robust_covariance[1:, 1:], robust.cov_params(), atol=1e-7)


def _davidson_statsmodels(df, models, cov_type="nonrobust"):
    """Davidson (1970) fitted by statsmodels' GenericLikelihoodModel (numerical Hessian)."""
    from statsmodels.base.model import GenericLikelihoodModel

    x = _design(df, models)
    ia = np.array([models.index(v) for v in df["model_a"]])
    ib = np.array([models.index(v) for v in df["model_b"]])
    out = df["winner"].map({"a": 0, "b": 1, "tie": 2}).to_numpy()

    class Davidson(GenericLikelihoodModel):
        def loglikeobs(self, params):
            lam = np.concatenate([[0.0], params[:-1]])
            la, lb = lam[ia], lam[ib]
            eta = np.stack([la, lb, params[-1] + (la + lb) / 2], axis=1)
            top = eta.max(axis=1, keepdims=True)
            lse = top[:, 0] + np.log(np.exp(eta - top).sum(axis=1))
            return eta[np.arange(len(out)), out] - lse

    model = Davidson(np.zeros(len(df)), x)
    return model.fit(start_params=np.zeros(x.shape[1] + 1), method="bfgs", maxiter=5000,
                     gtol=1e-10, disp=0, cov_type=cov_type)


@pytest.mark.filterwarnings("ignore:df_:UserWarning")
def test_davidson_matches_statsmodels_generic_likelihood():
    pytest.importorskip("statsmodels")
    df = _random_battles(seed=11, m=5, n=500, tie_rate=0.25)
    res = bt_table(df)
    assert res.ties == "davidson"
    fit = _davidson_statsmodels(df, list(res.models))
    np.testing.assert_allclose(res.abilities[1:], fit.params[:-1], atol=1e-5)
    np.testing.assert_allclose(np.log(res.tie_parameter), fit.params[-1], atol=1e-5)
    # statsmodels' standard errors come from a numerical Hessian
    np.testing.assert_allclose(res.standard_error[1:], fit.bse[:-1], rtol=1e-4)
    assert res.tie_parameter_se == pytest.approx(res.tie_parameter * fit.bse[-1], rel=1e-4)
    # the sandwich: GenericLikelihoodModel.fit(..., cov_type="HC0") (numerical scores)
    robust = _davidson_statsmodels(df, list(res.models), cov_type="HC0")
    np.testing.assert_allclose(res.robust_standard_error[1:], robust.bse[:-1], rtol=1e-5)


@pytest.mark.filterwarnings("ignore:df_:UserWarning")
def test_davidson_doctest_numbers_match_statsmodels():
    pytest.importorskip("statsmodels")
    df = pd.DataFrame({"model_a": ["x", "x", "x", "y", "y", "z", "x", "y"],
                       "model_b": ["y", "y", "z", "z", "z", "x", "y", "x"],
                       "winner": ["a", "a", "a", "a", "tie", "a", "b", "tie"]})
    fit = _davidson_statsmodels(df, ["x", "y", "z"])
    res = bradley_terry(df["model_a"], df["model_b"], df["winner"])
    np.testing.assert_allclose(res.abilities[1:], fit.params[:-1], atol=1e-5)
    assert [round(float(v), 3) for v in fit.params[:-1]] == [-0.274, -0.828]
    assert round(float(np.exp(fit.params[-1])), 3) == 0.690


def test_davidson_tends_to_bradley_terry_as_ties_vanish():
    df = _random_battles(seed=2)
    plain = bt_table(df)
    tiny = pd.concat([df.assign(weight=1.0), pd.DataFrame(
        {"model_a": ["model0"], "model_b": ["model1"], "winner": ["tie"], "weight": [1e-9]})])
    dav = bt_table(tiny)
    assert dav.ties == "davidson" and dav.tie_parameter < 1e-7
    np.testing.assert_allclose(dav.abilities, plain.abilities, atol=1e-6)


def test_half_ties_equal_half_wins():
    df = _random_battles(seed=4, tie_rate=0.3)
    res = bt_table(df, ties="half")
    tie = df["winner"] == "tie"
    split = pd.concat([df[~tie].assign(weight=1.0), df[tie].assign(winner="a", weight=0.5),
                       df[tie].assign(winner="b", weight=0.5)])
    ref = bt_table(split)
    np.testing.assert_allclose(res.abilities, ref.abilities, atol=1e-9)
    assert res.ties == "half"


def test_swapping_sides_changes_nothing():
    df = _random_battles(seed=8, tie_rate=0.2)
    swapped = pd.DataFrame({"model_a": df["model_b"], "model_b": df["model_a"],
                            "winner": df["winner"].map({"a": "b", "b": "a", "tie": "tie"})})
    one, two = bt_table(df), bt_table(swapped)
    np.testing.assert_allclose(one.abilities, two.abilities, atol=1e-10)
    np.testing.assert_allclose(one.robust_covariance, two.robust_covariance, atol=1e-10)


def test_elo_scale_anchor_and_odds():
    df = _random_battles(seed=6)
    res = bt_table(df, anchor="model3", anchor_rating=1114)
    k = res.models.index("model3")
    assert res.ratings[k] == pytest.approx(1114)
    assert res.rating_low[k] == pytest.approx(1114) and res.rating_high[k] == pytest.approx(1114)
    # a 400-point gap is 10:1 odds
    gap = res.ratings[0] - res.ratings[1]
    assert res.win_probability("model0", "model1") == pytest.approx(1 / (1 + 10 ** (-gap / 400)))
    mean = bt_table(df)
    assert np.mean(mean.ratings) == pytest.approx(1000)
    np.testing.assert_allclose(np.diff(mean.ratings), np.diff(res.ratings), atol=1e-9)
    # the interval of a rating under the mean rule is that of lambda_i - mean(lambda)
    c = np.eye(len(res.models)) - 1 / len(res.models)
    se = ELO * np.sqrt(np.diag(c @ mean.robust_covariance @ c.T))
    np.testing.assert_allclose(mean.rating_standard_error, se)


def test_bootstrap_batched_fit_equals_one_fit_per_resample():
    from outperform.stats._bt_bootstrap import _fit_batch
    from outperform.stats._bt_likelihood import PairTotals, battle_types, pair_totals
    from outperform.stats._bradley_terry import fit_abilities

    df = _random_battles(seed=9, m=5, n=300, tie_rate=0.2)
    models, idx = np.unique(np.r_[df["model_a"], df["model_b"]], return_inverse=True)
    outcome = df["winner"].map({"a": 0, "b": 1, "tie": 2}).to_numpy()
    rows, counts = battle_types(idx[:300], idx[300:], outcome, np.ones(300))
    pt, contrib = pair_totals(rows, counts, 5, 3)
    theta = fit_abilities(pt, True)
    rng = np.random.default_rng(0)
    draws = rng.multinomial(300, counts / 300, size=4).astype(float)
    totals = np.asarray((contrib.T @ draws.T).T).reshape(4, -1, 3)
    free = np.arange(1, pt.n_params)
    whiten = np.linalg.cholesky(np.linalg.inv(pt.information(theta)[np.ix_(free, free)]))
    batched = _fit_batch(pt, totals, theta, whiten)
    for b in range(4):
        single = fit_abilities(PairTotals(pt.pairs, totals[b], 5), True)
        np.testing.assert_allclose(batched[b], single, atol=1e-6)


def test_bootstrap_intervals_seeded_and_close_to_sandwich():
    df = _random_battles(seed=1, m=4, n=3000)
    one = bt_table(df, interval="bootstrap", n_resamples=300, random_state=0)
    two = bt_table(df, interval="bootstrap", n_resamples=300, random_state=0)
    np.testing.assert_array_equal(one.rating_low, two.rating_low)
    assert one.bootstrap_ratings.shape == (300, 4) and one.n_failed_resamples == 0
    sandwich = bt_table(df)
    # 300 resamples: the bootstrap sd is within ~15% of the sandwich SE
    np.testing.assert_allclose(one.rating_standard_error, sandwich.rating_standard_error,
                               rtol=0.15)


def test_bootstrap_leaves_out_resamples_without_finite_estimate():
    # model2 lost once only: resamples without that battle have no finite estimate
    df = pd.DataFrame({"model_a": ["x", "y", "x", "y", "z", "x", "y"],
                       "model_b": ["y", "x", "z", "z", "x", "y", "x"],
                       "winner": ["a", "a", "a", "b", "a", "b", "b"]})
    res = bt_table(df, interval="bootstrap", n_resamples=200, random_state=1)
    assert 0 < res.n_failed_resamples < 200
    assert res.bootstrap_ratings.shape[0] == 200 - res.n_failed_resamples
    assert np.all(np.isfinite(res.bootstrap_ratings))


@pytest.mark.parametrize("rows, match", [
    ((["x", "x"], ["y", "y"], ["a", "a"]), "x never lost nor tied"),
    ((["x", "y", "u", "v"], ["y", "x", "v", "u"], ["a", "a", "a", "a"]), "2 groups"),
    ((["x", "y"], ["y", "z"], ["tie", "tie"]), "every battle is a tie"),
])
def test_no_finite_estimate_is_refused(rows, match):
    with pytest.raises(DegenerateDataError, match=match):
        bradley_terry(*rows)


def test_reader_accepts_arena_spelling_and_refuses_bad_rows():
    ok = read_battles(pd.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "z"],
                                    "winner": ["model_b", "Tie (bothbad)"]}))
    assert list(ok["winner"]) == ["b", "tie"]
    base = {"model_a": ["x", "y"], "model_b": ["y", "z"], "winner": ["a", "b"]}
    for change, match in [({"winner": ["a", "draw"]}, "row 2 .*'draw'"),
                          ({"model_b": ["x", "z"]}, "row 1 .*battles itself"),
                          ({"weight": [1, -2]}, "negative in row 2"),
                          ({"weight": [1, np.nan]}, "NaN or infinite in row 2"),
                          ({"winner": ["a", None]}, "winner is missing in row 2")]:
        with pytest.raises(InvalidInputError, match=match):
            read_battles(pd.DataFrame({**base, **change}))
    with pytest.raises(InvalidInputError, match="no column 'winner'"):
        read_battles(pd.DataFrame({"model_a": ["x"], "model_b": ["y"]}))


def test_ratings_plot_sorted_best_first_with_intervals():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from outperform.plot import plot_bradley_terry

    res = bt_table(_random_battles(seed=3, m=6, n=800), anchor="model2")
    ax = plot_bradley_terry(res, top=4)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    best = [res.models[i] for i in np.argsort(-res.ratings)[:4]]
    assert labels == [m + (" (anchor)" if m == "model2" else "") for m in best]
    assert ax.get_ylim()[0] > ax.get_ylim()[1]     # best on top
    with pytest.raises(InvalidInputError):
        plot_bradley_terry(res, top=0)


def _arena_mle_elo(df, scale=400, base=10, init_rating=1000):
    """Chatbot Arena's compute_mle_elo (FastChat elo_analysis.py / the Arena notebook):
    every battle twice, a tie a win of model_a in the first copy and of model_b in the
    second, sklearn LogisticRegression(fit_intercept=False, penalty=None, tol=1e-6); here
    C=np.inf, sklearn 1.8's spelling of no penalty, and a tighter tol."""
    from sklearn.linear_model import LogisticRegression

    models = pd.Series(np.arange(len(np.unique(np.r_[df["model_a"], df["model_b"]]))),
                       index=np.unique(np.r_[df["model_a"], df["model_b"]]))
    df = pd.concat([df, df])
    p, n = len(models), len(df)
    x = np.zeros([n, p])
    x[np.arange(n), models[df["model_a"]]] = +np.log(base)
    x[np.arange(n), models[df["model_b"]]] = -np.log(base)
    y = np.zeros(n)
    y[(df["winner"] == "a").to_numpy()] = 1.0
    tie = (df["winner"] == "tie").to_numpy().copy()
    tie[n // 2:] = False
    y[tie] = 1.0
    lr = LogisticRegression(fit_intercept=False, C=np.inf, tol=1e-10, max_iter=10_000)
    lr.fit(x, y)
    return scale * lr.coef_[0] + init_rating


def test_half_ties_reproduce_chatbot_arena_ratings():
    pytest.importorskip("sklearn")
    df = _random_battles(seed=12, m=5, n=600, tie_rate=0.2)
    arena = _arena_mle_elo(df)
    res = bt_table(df, ties="half")
    # Arena's ratings have an arbitrary level (no reference): compare the centred ones
    np.testing.assert_allclose(res.ratings - res.ratings.mean(), arena - arena.mean(),
                               atol=1e-3)


def test_davidson_balanced_ranking_is_the_two_one_zero_score():
    # Davidson (1970, and his 1969 report AD0695468): in a balanced experiment (every pair
    # compared equally often) the MLE ranks the models as the score 2 per win, 1 per tie.
    rng = np.random.default_rng(7)
    lam = np.array([0.6, 0.3, 0.0, -0.2, -0.5])
    rows = []
    for i in range(5):
        for j in range(i + 1, 5):
            d = np.array([np.exp(lam[i]), np.exp(lam[j]), 0.8 * np.exp((lam[i] + lam[j]) / 2)])
            for w in rng.choice(["a", "b", "tie"], size=30, p=d / d.sum()):
                rows.append((f"m{i}", f"m{j}", w))
    df = pd.DataFrame(rows, columns=["model_a", "model_b", "winner"])
    res = bt_table(df)
    score = 2 * res.wins + res.ties_count
    assert len(np.unique(score)) == 5
    np.testing.assert_array_equal(np.argsort(-res.abilities), np.argsort(-score))
    # the likelihood equations of lambda_i hold at the fit: 2 W_i + T_i equals its expectation
    # sum_j n_ij (2 P(i wins) + P(tie)) (the score of lambda_i is half their difference)
    p = {}
    for i in range(5):
        for j in range(5):
            if i != j:
                e = np.exp([res.abilities[i], res.abilities[j],
                            np.log(res.tie_parameter) + (res.abilities[i] + res.abilities[j]) / 2])
                p[i, j] = e / e.sum()
    fitted = [sum(30 * (2 * p[i, j][0] + p[i, j][2]) for j in range(5) if j != i)
              for i in range(5)]
    np.testing.assert_allclose(score, fitted, rtol=1e-8)


def test_weights_are_frequency_weights():
    df = _random_battles(seed=13, m=4, n=200, tie_rate=0.2)
    doubled = bt_table(pd.concat([df, df.iloc[:50]]))
    weighted = bt_table(df.assign(weight=[2.0] * 50 + [1.0] * 150))
    np.testing.assert_allclose(weighted.abilities, doubled.abilities, atol=1e-9)
    np.testing.assert_allclose(weighted.covariance, doubled.covariance, atol=1e-9)
    np.testing.assert_allclose(weighted.robust_covariance, doubled.robust_covariance, atol=1e-9)
    np.testing.assert_array_equal(weighted.wins, doubled.wins)
