"""compare() for Q1: per-example predictions on one test set (Williams 2026 §6)."""
import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError, TooFewError
from outperform.compare import compare, compare_predictions


def _from_counts(n00, n01, n10, n11, seed=0):
    """A per-example table whose joint correctness has exactly these counts (A = GNN, B = LLM)."""
    a = np.r_[np.zeros(n00), np.zeros(n01), np.ones(n10), np.ones(n11)].astype(int)
    b = np.r_[np.zeros(n00), np.ones(n01), np.zeros(n10), np.ones(n11)].astype(int)
    order = np.random.default_rng(seed).permutation(a.size)
    y = np.ones(a.size, dtype=int)
    return pd.DataFrame({"y_true": y, "GNN": a[order], "LLM": b[order]})


def test_williams_da_en_and_tr_en():
    # Williams (2026) Table 1 counts; §6.2 results of the Bayesian McNemar test and R's mcnemar.test.
    da = compare(_from_counts(54, 159, 198, 589))
    bm = da.tests["bayesian_mcnemar"]
    assert (round(bm.p_a_better, 3), round(bm.p_rope, 3)) == (0.571, 0.429)
    assert bm.p_b_better == pytest.approx(0.00004, abs=0.00001)
    assert da.tests["mcnemar_chi2"].pvalue == pytest.approx(0.044, abs=0.001)
    tr = compare(_from_counts(19, 64, 30, 103))
    bm = tr.tests["bayesian_mcnemar"]
    assert (round(bm.p_rope, 3), round(bm.p_b_better, 3)) == (0.004, 0.996)
    assert bm.decision == "B better"
    assert tr.tests["mcnemar_chi2"].pvalue == pytest.approx(0.00066, abs=0.00001)
    assert "LLM is practically better than GNN" in tr.conclusions[0]


def test_swapping_models_mirrors():
    df = _from_counts(19, 64, 30, 103)
    a = compare(df).tests["bayesian_mcnemar"]
    b = compare(df[["y_true", "LLM", "GNN"]]).tests["bayesian_mcnemar"]
    assert a.p_a_better == pytest.approx(b.p_b_better) and a.p_rope == pytest.approx(b.p_rope)


def test_probabilities_give_delong_and_log_loss():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    good = np.clip(0.5 + 0.35 * (2 * y - 1) + rng.normal(0, 0.2, 400), 0.01, 0.99)
    weak = np.clip(0.5 + 0.1 * (2 * y - 1) + rng.normal(0, 0.2, 400), 0.01, 0.99)
    df = pd.DataFrame({"y_true": y, "good": good, "weak": weak})
    zero_one = compare_predictions(df)
    assert "delong" in zero_one.tests and zero_one.tests["delong"].estimate > 0
    log = compare_predictions(df, loss="log")
    assert log.recommended == "bayesian_t" and log.tests["bayesian_t"].decision == "A better"
    assert log.summary[0]["model"] == "good"
    # The paired t-test on log scores agrees in sign with the Bayesian posterior.
    assert log.tests["paired_t"].statistic > 0


def test_many_models_cochran_and_pairs():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 500)
    preds = {f"m{i}": np.where(rng.uniform(size=500) < 0.6 + 0.1 * i, y, (y + 1) % 3)
             for i in range(3)}
    rep = compare_predictions(pd.DataFrame({"y_true": y, **preds}))
    assert rep.recommended == "cochran_q" and rep.tests["cochran_q"].pvalue < 0.05
    assert set(rep.posthoc) == {"mcnemar_holm", "bayesian_mcnemar"}
    ref = compare_predictions(pd.DataFrame({"y_true": y, **preds}), control="m0")
    assert ref.posthoc["mcnemar_holm"].control == "m0"


def test_groups_are_averaged_first():
    df = _from_counts(54, 159, 198, 589)
    df["doc"] = np.arange(len(df)) // 10
    rep = compare_predictions(df, group="doc")
    assert rep.details["groups"] == 100 and rep.recommended == "bayesian_t"
    assert any("groups" in w for w in rep.warnings)


def test_bad_input():
    df = _from_counts(5, 5, 5, 5)
    with pytest.raises(InvalidInputError, match="control"):
        compare_predictions(df, control="nope")
    with pytest.raises(InvalidInputError, match="missing"):
        compare_predictions(df.assign(GNN=df.GNN.where(df.index != 3)))
    with pytest.raises(TooFewError):
        compare_predictions(df[["y_true", "GNN"]])
    with pytest.raises(InvalidInputError, match="y_true"):
        compare_predictions(df.rename(columns={"y_true": "label"}))


def test_identical_errors_are_a_clear_error():
    from outperform import DegenerateDataError

    df = _from_counts(10, 0, 0, 30)
    with pytest.raises(DegenerateDataError, match="same examples"):
        compare_predictions(df)


def test_warns_when_examples_look_clustered():
    df = _from_counts(54, 159, 198, 589)
    df["document"] = np.arange(len(df)) // 10
    rep = compare_predictions(df)
    assert any("cluster" in w and "document" in w for w in rep.warnings)
    assert rep.models == ("GNN", "LLM")  # the id column is not taken for a model
    assert not any("cluster id" in w for w in compare_predictions(df, group="document").warnings)
