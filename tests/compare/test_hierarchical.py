"""compare() routes per-task counts to the hierarchical McNemar model and adds the
hierarchical t-test on per-fold results (Williams 2026 §5.5, §6.2; Benavoli et al. 2017)."""
import warnings

import pytest
from typer.testing import CliRunner

from outperform import InvalidInputError
from outperform.cli import app
from outperform.compare import compare, compare_counts
from outperform.data import load_williams_table1
from outperform.report import render_markdown


@pytest.mark.slow
def test_williams_table1_through_compare(tmp_path):
    path = tmp_path / "counts.csv"
    load_williams_table1().to_csv(path, index=False)
    rep = compare(path)
    assert rep.models == ("A", "B")   # no model_a/model_b columns, no names
    hier = rep.tests["hierarchical_mcnemar"]
    # Williams (2026) §6.2: phi_bar = 0.521; P(GNN better, equivalent, LLM better) =
    # 0.053 / 0.737 / 0.210 from sampling (within 0.01); Friedman chi2 = 0.818, p = 0.366.
    assert round(hier.posterior_mean, 3) == 0.521
    assert hier.p_a_better == pytest.approx(0.053, abs=0.01)
    assert hier.p_rope == pytest.approx(0.737, abs=0.01)
    assert hier.p_b_better == pytest.approx(0.210, abs=0.01)
    assert round(rep.tests["friedman"].statistic, 3) == 0.818
    per_task = {r["task"]: r for r in rep.details["per_task"]}
    assert round(per_task["da-en"]["p_a_better"], 3) == 0.571


@pytest.mark.slow
def test_swapping_counts_mirrors():
    t = load_williams_table1()
    a = compare_counts(t, names=("GNN", "LLM")).tests["hierarchical_mcnemar"]
    b = compare_counts(t.rename(columns={"n01": "n10", "n10": "n01"}),
                       names=("LLM", "GNN")).tests["hierarchical_mcnemar"]
    assert a.p_a_better == pytest.approx(b.p_b_better, abs=1e-6)


def test_bad_counts():
    t = load_williams_table1()
    with pytest.raises(InvalidInputError, match="non-negative"):
        compare_counts(t.assign(n01=-t.n01))
    with pytest.raises(InvalidInputError, match="n01 and n10"):
        compare_counts(t.drop(columns="n10"))


@pytest.mark.slow
def test_model_names_from_columns_reach_the_command_line_report(tmp_path):
    path = tmp_path / "counts.csv"
    load_williams_table1().assign(model_a="GNN", model_b="LLM").to_csv(path, index=False)
    res = CliRunner().invoke(app, ["compare", str(path), "--format", "markdown"])
    assert res.exit_code == 0, res.output
    # Williams (2026) §6.2: GNN (A) against LLM (B), no decision for the next task.
    assert "no decision between GNN and LLM" in res.output
    assert "P(GNN better)" in res.output and "P(LLM better)" in res.output
    assert "| GNN | 1536 |" in res.output   # A's unshared errors = sum of n01
    assert "between A and B" not in res.output and "P(A better)" not in res.output


@pytest.mark.slow
def test_explicit_names_override_the_columns():
    t = load_williams_table1().assign(model_a="GNN", model_b="LLM")
    rep = compare_counts(t, names=("graph net", "language model"))
    assert rep.models == ("graph net", "language model")
    # Summary best first: the LLM has fewer unshared errors (1428 against 1536).
    assert [(row["model"], row["unshared_errors"]) for row in rep.summary] == [
        ("language model", 1428), ("graph net", 1536)]
    per_task = {r["task"]: r for r in rep.details["per_task"]}
    assert per_task["tr-en"]["decision"].startswith("language model")   # Williams: LLM on tr-en
    text = render_markdown(rep)
    assert "P(graph net better)" in text and "GNN" not in text


@pytest.mark.parametrize("columns, message", [
    ({"model_a": ["GNN"] * 10 + ["CNN"], "model_b": "LLM"},
     r"'model_a' must hold one model name on every row, got \['CNN', 'GNN'\].*split it"),
    ({"model_a": "GNN", "model_b": ["LLM"] * 10 + [None]}, "'model_b' has missing values"),
    ({"model_a": "GNN", "model_b": "GNN"}, "both named 'GNN'"),
    ({"model_a": "B"}, "both named 'B'"),
])
def test_bad_name_columns(columns, message):
    with pytest.raises(InvalidInputError, match=message):
        compare_counts(load_williams_table1().assign(**columns))


@pytest.mark.parametrize("names, message", [
    (("GNN",), "2 distinct names"), (("GNN", "GNN"), "unique"), ("GNN", "not one string")])
def test_bad_explicit_names(names, message):
    with pytest.raises(InvalidInputError, match=message):
        compare_counts(load_williams_table1(), names=names)


@pytest.mark.slow
def test_hierarchical_ttest_on_uci54_nbc_vs_hnb(shared_data):
    from outperform.data import load_uci54

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
        rep = compare(t[t.model.isin(["nbc", "hnb"])], hierarchical=True)
    res = rep.tests["hierarchical"]
    # Benavoli et al. (2017): hnb is better than nbc with high probability.
    p_hnb = res.p_a_better if rep.models[0] == "hnb" else res.p_b_better
    assert p_hnb > 0.9


def test_hierarchical_needs_two_models(shared_data):
    from outperform.data import load_uci54

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
    with pytest.raises(InvalidInputError, match="two algorithms"):
        compare(t[t.model.isin(["nbc", "hnb", "aode"])], hierarchical=True)
