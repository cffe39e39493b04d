"""compare_evals(gold=): each model's and pair's PPI++ row equals ppi_py on the same items,
Rogan–Gladen and agreement appear for 0/1 verdicts, the report shows both side by side."""
import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError
from outperform.compare import compare_evals

ppi_py = pytest.importorskip("ppi_py")


def _judged(n=300, n_gold=60, seed=0):
    rng = np.random.default_rng(seed)
    rows, gold, truth = [], [], {}
    for m, p in (("big", 0.7), ("small", 0.55)):
        y = (rng.random(n) < p).astype(int)
        f = np.where(y == 1, rng.random(n) < 0.9, rng.random(n) < 0.3).astype(int)
        truth[m] = (y, f)
        rows += [(m, f"q{i}", int(f[i])) for i in range(n)]
        gold += [(m, f"q{i}", int(y[i])) for i in range(n_gold)]
    return (pd.DataFrame(rows, columns=["model", "item", "score"]),
            pd.DataFrame(gold, columns=["model", "item", "label"]), truth)


def test_rows_equal_ppi_py_for_models_and_the_pair():
    table, gold, truth = _judged()
    res = compare_evals(table, gold=gold)
    j = res.judge["task"]
    for row in j.models:
        y, f = truth[row["model"]]
        # ppi_py.ppi_mean_ci(Y, Yhat, Yhat_unlabeled, alpha=0.05): the 60 labelled items
        lo, hi = ppi_py.ppi_mean_ci(y[:60].astype(float), f[:60].astype(float),
                                    f[60:].astype(float), alpha=0.05)
        assert (row["ppi_low"], row["ppi_high"]) == pytest.approx(
            (float(np.ravel(lo)[0]), float(np.ravel(hi)[0])), abs=1e-10)
        assert row["judge_mean"] == pytest.approx(f.mean())
    (pair,) = j.pairs
    (ya, fa), (yb, fb) = truth["big"], truth["small"]
    d_y, d_f = (ya - yb).astype(float), (fa - fb).astype(float)
    lo, hi = ppi_py.ppi_mean_ci(d_y[:60], d_f[:60], d_f[60:], alpha=0.05)
    assert (pair["ppi_low"], pair["ppi_high"]) == pytest.approx(
        (float(np.ravel(lo)[0]), float(np.ravel(hi)[0])), abs=1e-10)
    assert j.binary and "rg_mean" in j.models[0]
    assert [a.statistic for a in j.agreement] == ["cohen_kappa", "gwet_ac1",
                                                  "krippendorff_alpha"]
    assert any(c.startswith("task: PPI++ paired difference") for c in res.conclusions)


def test_report_and_json():
    from outperform.report import evals_output, output_dict, validate_output

    table, gold, _ = _judged()
    out = evals_output(compare_evals(table, gold=gold))
    assert "PPI++" in out.text and "Rogan–Gladen" in out.text and "Gwet's AC1" in out.text
    assert "judge" in validate_output(output_dict(out))


def test_graded_scores_use_interval_alpha():
    table, gold, _ = _judged()
    table["score"] = table["score"] * 0.8 + 0.1
    gold["label"] = gold["label"] * 0.9
    j = compare_evals(table, gold=gold).judge["task"]
    assert not j.binary and "rg_mean" not in j.models[0]
    assert [a.method for a in j.agreement] == ["Krippendorff's α (interval)"]


def test_gold_that_matches_nothing_is_refused():
    table, gold, _ = _judged()
    gold["item"] = "other-" + gold["item"]
    with pytest.raises(InvalidInputError, match="no gold label matches"):
        compare_evals(table, gold=gold)


@pytest.mark.slow                 # three models: the per-task leaderboard's bootstrap (~1 s)
def test_three_models_holm_over_the_pairs():
    from statsmodels.stats.multitest import multipletests

    table, gold, _ = _judged()
    third = table[table["model"] == "small"].assign(model="tiny")
    third["score"] = third["score"].to_numpy()[::-1]
    table = pd.concat([table, third])
    gold = pd.concat([gold, gold[gold["model"] == "small"].assign(model="tiny")])
    j = compare_evals(table, gold=gold).judge["task"]
    raw = [r["pvalue"] for r in j.pairs]
    # statsmodels.stats.multitest.multipletests(raw, method="holm")[1]
    assert [r["pvalue_adjusted"] for r in j.pairs] == pytest.approx(
        multipletests(raw, method="holm")[1], abs=1e-12)
    assert all("Holm-adjusted over the 3 pairs" in c for c in j.conclusions)
