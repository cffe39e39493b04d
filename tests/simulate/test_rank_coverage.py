"""Coverage of rank confidence sets in simulation (issue 15: "It must show")."""
import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.simulate import RANK_COVERAGE_MEANS, rank_set_coverage


def _floor(n_replications, alpha=0.05):
    """1 - alpha minus 2 Monte Carlo standard errors of a coverage of exactly 1 - alpha."""
    return 1 - alpha - 2 * np.sqrt(alpha * (1 - alpha) / n_replications)


def test_true_ranks_of_the_default_design():
    # 0.60 < 0.62 = 0.62 < 0.64 < 0.65 = 0.65 = 0.65 < 0.68 < 0.70 < 0.74
    res = rank_set_coverage(n_items=200, n_replications=2, n_resamples=100)
    assert res.true_ranks.tolist() == [[10, 10], [8, 9], [8, 9], [7, 7], [4, 6], [4, 6],
                                       [4, 6], [3, 3], [2, 2], [1, 1]]
    assert len(RANK_COVERAGE_MEANS) == 10


def test_simultaneous_sets_cover_and_percentile_intervals_do_not():
    res = rank_set_coverage(n_items=500, n_replications=80, n_resamples=300, random_state=3)
    assert res.coverage("simultaneous") >= _floor(80)
    # The percentile intervals' joint coverage is far below: 0.72 in the full run.
    assert res.coverage("percentile") < res.coverage("simultaneous") - 0.1
    frame = res.to_frame()
    assert list(frame["kind"]) == ["simultaneous", "marginal", "percentile"]


@pytest.mark.slow
def test_full_coverage_study():
    # The docs' figure (docs/tutorial-leaderboards.md): 1,000 replications.
    res = rank_set_coverage(n_replications=1000, random_state=2026)
    assert res.coverage("simultaneous") >= _floor(1000)
    assert res.coverage("percentile") < 1 - 0.05


def test_plot(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from outperform.plot import plot_rank_set_coverage

    res = rank_set_coverage([0.6, 0.6, 0.7], n_items=200, n_replications=5, n_resamples=100)
    ax = plot_rank_set_coverage(res)
    ax.figure.savefig(tmp_path / "coverage.png")
    assert len(ax.get_xticklabels()) == 3
    with pytest.raises(InvalidInputError):
        plot_rank_set_coverage(res.to_frame())


def test_normal_scores_and_clusters():
    # Continuous scores take means on any scale; clusters must divide the items.
    res = rank_set_coverage([-1.0, 0.0, 2.0], scores="normal", n_items=12, cluster_size=3,
                            n_replications=3, n_resamples=100)
    assert res.true_ranks.tolist() == [[3, 3], [2, 2], [1, 1]]
    assert "normal scores" in res.design and "4 clusters of 3 items" in res.design
    # cluster_size=1 is the design without clusters, draw for draw.
    a = rank_set_coverage(n_items=20, n_replications=5, n_resamples=100, random_state=4)
    b = rank_set_coverage(n_items=20, n_replications=5, n_resamples=100, random_state=4,
                          cluster_size=1)
    assert all((a.covered[k] == b.covered[k]).all() for k in a.covered)


@pytest.mark.parametrize("kwargs", [dict(means=[0.5]), dict(means=[0.5, 1.2]),
                                    dict(n_items=1), dict(difficulty=-1.0),
                                    dict(scores="counts"), dict(n_items=10, cluster_size=3),
                                    dict(n_items=10, cluster_size=10),
                                    dict(means=[0.0, float("nan")], scores="normal")])
def test_bad_designs_are_refused(kwargs):
    with pytest.raises(InvalidInputError):
        rank_set_coverage(**kwargs)
