"""compare(..., bayesian=True) for Q3: Bayesian signed-rank/sign tests and the Poisson test."""
import warnings

import numpy as np
import pytest

from outperform.bayes import bayesian_signed_rank_test
from outperform.compare import compare
from outperform.data import load_demsar_table2, load_demsar_table6


def test_two_models_get_signed_rank_and_sign_tests():
    rep = compare(load_demsar_table2(), bayesian=True, random_state=1)
    sr = rep.tests["bayesian_signed_rank"]
    m = load_demsar_table2().score_matrix().values
    ref = bayesian_signed_rank_test(m[:, 0], m[:, 1], rope=0.01, random_state=1)
    assert sr.p_b_better == pytest.approx(ref.p_b_better)
    assert rep.details["rope"] == 0.01 and "Benavoli" in rep.details["rope_rule"]
    assert "bayesian_sign" in rep.tests
    assert any("Bayesian signed-rank" in c for c in rep.conclusions)


def test_swapping_models_mirrors_the_bayesian_section():
    t = load_demsar_table2()
    a = compare(t, bayesian=True, random_state=3).tests["bayesian_signed_rank"]
    swapped = t.score_matrix().to_frame()[["C4.5+m", "C4.5"]].rename_axis("task").reset_index()
    b = compare(swapped, metric="auc", bayesian=True, random_state=3).tests["bayesian_signed_rank"]
    assert a.p_a_better == pytest.approx(b.p_b_better, abs=0.01)
    assert a.p_rope == pytest.approx(b.p_rope, abs=0.01)


def test_many_models_get_pairwise_tables():
    rep = compare(load_demsar_table6(), bayesian=True, rope=0.005)
    post = rep.posthoc["bayesian_signed_rank"]
    assert post.names == ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
    p = post.statistic
    i, j = np.triu_indices(4, 1)
    total = p[i, j] + p[j, i] + np.asarray(post.details["p_rope"])[i, j]
    assert np.allclose(total, 1.0, atol=1e-9)
    assert rep.details["rope"] == 0.005


def test_folds_add_the_poisson_test(shared_data):
    from outperform.data import load_uci54

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
    two = t[t.model.isin(["nbc", "hnb"])]
    rep = compare(two, bayesian=True)
    pt = rep.tests["poisson"]
    # Benavoli et al. (2017): hnb is better than nbc on most data sets.
    names = rep.models
    p_hnb = pt.p_a_better if names[0] == "hnb" else pt.p_b_better
    assert p_hnb > 0.9
