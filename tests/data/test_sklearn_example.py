"""scikit-learn's example "Statistical comparison of models using grid search" reproduced
from the fitted search object in one call (issue 27, "It must show").

Source: scikit-learn/scikit-learn, examples/model_selection/plot_grid_search_stats.py
(commit 097458a12edf03db6cdb03ed0b3be9018b0a49f8; the same data, estimator, grid and
splitter as below). The numbers are what the example prints — its own hand-written code
(corrected_std, compute_corrected_ttest, scipy.stats.t) run on scikit-learn 1.9.1, as its
gallery page shows them — and what its prose states:
  "Corrected t-value: 0.750 / Corrected p-value: 0.227" (right-tailed, rbf vs linear; our
  test is two-sided, p = 2 × 0.227 = 0.454 up to the rounding of 0.227);
  pairwise Bayesian table with ROPE [-0.01, 0.01]: rbf vs linear worse_prob 0.068,
  better_prob 0.500, rope_prob 0.432; rbf vs 3_poly worse_prob 0.018, better 0.882,
  rope 0.100 (prose: "a 6.8% chance of being worse than 'linear', and a 1.8% chance of
  being worse than '3_poly' ... 43% probability of being practically equivalent ...
  'rbf' and '3_poly' have a 10% chance"); rbf vs 2_poly: t = 4.565, better 1.000.
  Its credible intervals of rbf − linear: 50% [0.000977, 0.019023], 95% [-0.016445,
  0.036445] (prose).
"""
import pytest

import outperform

pytestmark = pytest.mark.slow   # the search fits 4 × 100 SVCs (about 1.5 s)


@pytest.fixture(scope="module")
def search():
    from sklearn.datasets import make_moons
    from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    from sklearn.svm import SVC

    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    param_grid = [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]},
                  {"kernel": ["rbf"]}]
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    return GridSearchCV(estimator=SVC(random_state=0), param_grid=param_grid,
                        scoring="roc_auc", cv=cv).fit(X, y)


def test_best_two_candidates_in_one_call(search):
    report = outperform.compare(search, top=2, rope=0.01)
    assert report.models == ("kernel=rbf", "kernel=linear")
    assert report.details["rho"] == pytest.approx(0.1)   # 10 × 10-fold: n_test/n = 1/10
    t, b = report.tests["corrected_t"], report.tests["correlated_bayes"]
    assert t.statistic == pytest.approx(0.750, abs=5e-4)
    assert t.pvalue == pytest.approx(2 * 0.227, abs=1e-3)
    assert (b.p_left, b.p_rope, b.p_right) == pytest.approx((0.068, 0.432, 0.500), abs=5e-4)


def test_credible_intervals_of_the_example(search):
    b = outperform.compare(search, top=2, rope=0.01).tests["correlated_bayes"]
    assert b.credible_interval(0.5) == pytest.approx((0.000977, 0.019023), abs=5e-7)
    assert b.credible_interval(0.95) == pytest.approx((-0.016445, 0.036445), abs=5e-7)


def test_all_four_candidates_pairwise(search):
    report = outperform.compare(search, rope=0.01)
    names = report.models
    assert names == ("kernel=rbf", "kernel=linear", "kernel=poly, degree=3",
                     "kernel=poly, degree=2")
    post = report.posthoc["corrected_t_holm"]
    rbf, lin, p3, p2 = range(4)
    assert post.statistic[rbf, lin] == pytest.approx(0.750, abs=5e-4)
    assert post.statistic[rbf, p2] == pytest.approx(4.565, abs=5e-4)
    better, rope = post.details["p_row_better"], post.details["p_rope"]
    assert (better[lin][rbf], rope[rbf][lin], better[rbf][lin]) == pytest.approx(
        (0.068, 0.432, 0.500), abs=5e-4)
    assert (better[p3][rbf], rope[rbf][p3], better[rbf][p3]) == pytest.approx(
        (0.018, 0.100, 0.882), abs=5e-4)
    assert better[rbf][p2] == pytest.approx(1.0, abs=5e-4)
