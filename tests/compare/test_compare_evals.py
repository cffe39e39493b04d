"""compare_evals and its kernels (issue 16): pairing matters, clustering matters, and the
intervals equal statsmodels'."""
from __future__ import annotations


import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from _paths import FIXTURES
from outperform.cli import app
from outperform.compare import compare_evals
from outperform.stats import paired_difference, proportion_confint

DATA = FIXTURES / "evals"
runner = CliRunner()


def _table(a, b, clusters=None, task="qa") -> pd.DataFrame:
    n = len(a)
    df = pd.DataFrame({"model": ["A"] * n + ["B"] * n, "task": task,
                       "item": list(range(n)) * 2, "score": list(a) + list(b)})
    return df if clusters is None else df.assign(cluster=list(clusters) * 2)


def test_pairing_finds_a_difference_the_unpaired_comparison_misses():
    # 100 items; A right on items 0-59, B on 0-49 (B's right answers are A's too).
    a = np.r_[np.ones(60), np.zeros(40)]
    b = np.r_[np.ones(50), np.zeros(50)]
    rep = compare_evals(_table(a, b)).per_task["qa"][0]
    d = rep.tests["paired_difference"]
    # By hand: d = 1 on 10 items, 0 on 90; mean 0.1, sum of squares 10(0.9)² + 90(0.1)² = 9,
    # SE = sqrt(9/99)/10 = 0.0301511, z = 3.3166, p = 2Φ(−3.3166) = 0.000911.
    assert d.estimate == pytest.approx(0.1)
    assert d.details["standard_error"] == pytest.approx(np.sqrt(9 / 99) / 10)
    assert d.pvalue == pytest.approx(0.000911, abs=2e-6)
    # Unpaired: SE_A² = 0.6·0.4·100/99/100, SE_B² = 0.25·100/99/100, SE = sqrt(49/99)/10
    # = 0.0703526, z = 1.4214, p = 0.155: "no difference".
    assert d.details["unpaired_standard_error"] == pytest.approx(np.sqrt(49 / 99) / 10)
    assert d.details["unpaired_pvalue"] == pytest.approx(0.1552, abs=1e-4)
    assert rep.conclusions[0].startswith("paired difference of means: A is significantly "
                                         "better than B")
    # McNemar: 10 discordant items, all for A: p = 2 / 2^10.
    assert rep.tests["mcnemar"].pvalue == pytest.approx(2 / 1024)


def test_clustered_items_widen_the_interval_the_naive_one_understates():
    # 10 passages of 10 questions; within a passage the difference A − B is the same:
    # +1 on 3 passages, 0 on 6, −1 on 1.
    v = np.repeat([1, 1, 1, 0, 0, 0, 0, 0, 0, -1], 10)
    a = np.where(v >= 0, 1.0, 0.0)
    b = np.where(v <= 0, 1.0, 0.0)
    clusters = np.repeat([f"p{g}" for g in range(10)], 10)
    naive = compare_evals(_table(a, b)).per_task["qa"][0]
    clustered = compare_evals(_table(a, b, clusters)).per_task["qa"][0]
    dn, dc = naive.tests["paired_difference"], clustered.tests["paired_difference"]
    # By hand: mean d = 0.2; item residuals 0.8 (30), −0.2 (60), −1.2 (10): sum of squares 36,
    # naive SE = sqrt(36/99)/10 = 0.0603023, z = 3.317, p < 0.001.
    assert dn.details["standard_error"] == pytest.approx(np.sqrt(36 / 99) / 10)
    assert dn.pvalue < 0.001
    # Cluster sums of residuals 8 (x3), −2 (x6), −12: Σ U² = 360; with G/(G−1) = 10/9,
    # Var = (10/9)·360/100² = 0.04, SE = 0.2, z = 1, p = 2Φ(−1) = 0.3173: no difference.
    assert dc.details["standard_error"] == pytest.approx(0.2)
    assert dc.pvalue == pytest.approx(0.3173, abs=1e-4)
    assert dc.details["design_effect"] == pytest.approx(0.04 / (36 / 99 / 100))
    assert "no significant difference between A and B" in clustered.conclusions[0]
    assert "A is significantly better than B" in naive.conclusions[0]
    # With clusters McNemar (independent items) is not run; the t-tests use cluster means.
    assert "mcnemar" not in clustered.tests and clustered.tests["paired_t"].details
    lo, hi = dc.confidence_interval(0.95)
    assert (lo, hi) == pytest.approx((0.2 - 1.959964 * 0.2, 0.2 + 1.959964 * 0.2), abs=1e-6)


def test_cluster_robust_se_equals_statsmodels_cluster_ols():
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(3)
    groups = rng.integers(0, 25, 400)
    effect = rng.normal(0, 0.3, 25)[groups]
    a = (rng.random(400) < 0.6 + effect).astype(float)
    b = (rng.random(400) < 0.5 + effect).astype(float)
    res = paired_difference(a, b, groups)
    fit = sm.OLS(a - b, np.ones(400)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    assert res.estimate == pytest.approx(fit.params[0])
    assert res.details["standard_error"] == pytest.approx(fit.bse[0], rel=1e-10)
    assert res.pvalue == pytest.approx(fit.pvalues[0], rel=1e-8)
    assert res.confidence_interval(0.9) == pytest.approx(tuple(fit.conf_int(0.1)[0]), rel=1e-10)
    # the same number through compare_evals, clusters from the table
    rep = compare_evals(_table(a, b, groups)).per_task["qa"][0]
    assert rep.tests["paired_difference"].details["standard_error"] == pytest.approx(fit.bse[0])


@pytest.mark.parametrize("method", ["wilson", "jeffreys"])
@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_proportion_intervals_equal_statsmodels(method, level):
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    n = np.array([1, 5, 10, 37, 100, 1000, 100000])
    for k in (np.zeros_like(n), n // 3, n // 2, n - 1, n):
        ours = proportion_confint(k, n, method=method, confidence_level=level)
        theirs = proportion.proportion_confint(k, n, alpha=1 - level, method=method)
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)


@pytest.mark.slow
def test_model_rows_carry_wilson_and_jeffreys_intervals():
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    rep = compare_evals(DATA / "lm_eval").per_task["mini_arc"][0]
    row = next(r for r in rep.summary if r["model"] == "EleutherAI/pythia-160m")
    assert row["mean_score"] == 0.75
    assert (row["wilson_low"], row["wilson_high"]) == pytest.approx(
        proportion.proportion_confint(30, 40, method="wilson"))
    assert (row["jeffreys_low"], row["jeffreys_high"]) == pytest.approx(
        proportion.proportion_confint(30, 40, method="jeffreys"))


@pytest.mark.slow
def test_lm_eval_fixture_tests_per_task_and_over_tasks():
    res = compare_evals(DATA / "lm_eval")
    arc = res.per_task["mini_arc"][0]
    # make_fixtures.py: 160m wrong on documents 0, 4, ..., 36; 410m on 0, 10, 20, 30. Only
    # 160m wrong: 8 documents; only 410m wrong: 10 and 30. Exact McNemar p = 2·P(X ≤ 2 | 10,
    # 1/2) = 2·(1 + 10 + 45)/1024.
    assert arc.tests["mcnemar"].pvalue == pytest.approx(112 / 1024)
    assert arc.tests["bayesian_mcnemar"].p_b_better > 0.9
    assert res.hierarchical is not None and res.hierarchical.details["per_task"][0]["n01"] == 8
    assert res.score_matrix.values.shape == (2, 2)
    assert any("Q3 across tasks not run" in n for n in res.notes)    # 2 tasks: too few
    swapped = compare_evals(DATA / "lm_eval", models=["EleutherAI/pythia-410m",
                                                      "EleutherAI/pythia-160m"])
    assert swapped.per_task["mini_arc"][0].tests["paired_difference"].estimate == \
        pytest.approx(-arc.tests["paired_difference"].estimate)


def test_q3_over_tasks_runs_with_enough_tasks():
    rng = np.random.default_rng(0)
    frames = [_table((rng.random(50) < 0.7).astype(float), (rng.random(50) < 0.5).astype(float),
                     task=f"t{i}") for i in range(7)]
    res = compare_evals(pd.concat(frames))
    assert res.across_tasks is not None and res.across_tasks.question == "Q3"
    assert res.across_tasks.n_tasks == 7 and res.hierarchical is not None


def test_lower_is_better_metric_names_the_other_model():
    # perplexity: lower is better, so A with the lower mean is the better model
    a, b = np.r_[np.full(30, 10.0), np.full(30, 12.0)], np.r_[np.full(30, 13.0), np.full(30, 14.0)]
    table = _table(a + np.arange(60) * 0.01, b).assign(metric="word_perplexity")
    rep = compare_evals(table).per_task["qa"][0]
    assert rep.higher_is_better is False
    assert rep.conclusions[0].startswith("paired difference of means: A is significantly better")


def test_three_models_all_pairs_and_control():
    rng = np.random.default_rng(1)
    rows = [pd.DataFrame({"model": m, "task": "qa", "item": range(80),
                          "score": (rng.random(80) < p).astype(float)})
            for m, p in (("x", 0.5), ("y", 0.6), ("z", 0.7))]
    table = pd.concat(rows)
    assert len(compare_evals(table).per_task["qa"]) == 3
    vs = compare_evals(table, control="x").per_task["qa"]
    assert [r.models for r in vs] == [("x", "y"), ("x", "z")]


def test_cli_prints_better_model_difference_and_ci():
    res = runner.invoke(app, ["compare-evals", str(DATA / "lm_eval"), "--metric", "acc"])
    assert res.exit_code == 0, res.output
    assert "EleutherAI/pythia-410m is significantly better than EleutherAI/pythia-160m" in \
        res.output
    assert "−0.15" in res.output or "-0.15" in res.output
    assert "95% CI [-0.2997, -0.0003053]" in res.output


def test_cli_refuses_missing_items_in_one_line(tmp_path):
    table = _table(np.ones(5), np.zeros(5)).iloc[:-1]
    path = tmp_path / "scores.csv"
    table.to_csv(path, index=False)
    res = runner.invoke(app, ["compare-evals", str(path)])
    assert res.exit_code == 1 and "B lacks 1 (first ['4'])" in res.output
    assert "Traceback" not in res.output
    ok = runner.invoke(app, ["compare-evals", str(path), "--intersect", "--json"])
    assert ok.exit_code == 0 and '"dropped"' in ok.output


@pytest.mark.slow
def test_report_command_accepts_evaluation_logs(tmp_path):
    pytest.importorskip("jsonschema")
    from outperform.report import validate_report

    res = runner.invoke(app, ["report", str(DATA / "lm_eval"), "--out", str(tmp_path),
                              "--formats", "md,json"])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mini_arc.json", "mini_arc.md", "mini_gsm.json", "mini_gsm.md",
        "over-tasks-hierarchical.json", "over-tasks-hierarchical.md"]
    validate_report((tmp_path / "mini_arc.json").read_text())
    assert "EleutherAI/pythia-410m is significantly better" in (tmp_path / "mini_arc.md").read_text()


def test_same_difference_on_every_item_gives_no_p_value_but_names_the_better():
    rep = compare_evals(_table(np.ones(8), np.zeros(8))).per_task["qa"][0]
    d = rep.tests["paired_difference"]
    assert d.estimate == 1 and np.isnan(d.pvalue)
    assert rep.conclusions[0] == ("paired difference of means: undefined, A's score is 1 higher "
                                  "than B's on each of the 8 items (no spread, so no p-value).")
    assert rep.tests["mcnemar"].pvalue == pytest.approx(2 / 2 ** 8)   # 8 discordant, all for A


def test_tasks_with_metrics_of_opposite_directions_are_not_pooled():
    rng = np.random.default_rng(2)
    acc = _table((rng.random(40) < 0.7).astype(float), (rng.random(40) < 0.5).astype(float),
                 task="t1").assign(metric="acc")
    ppl = _table(rng.normal(10, 1, 40), rng.normal(11, 1, 40), task="t2").assign(
        metric="word_perplexity")
    res = compare_evals(pd.concat([acc, ppl]))
    assert res.across_tasks is None and res.hierarchical is None
    assert any("different directions" in n for n in res.notes)
    assert [r[0].higher_is_better for r in res.per_task.values()] == [True, False]


def test_inspect_logs_without_inspect_ai_name_the_extra():
    try:
        import inspect_ai  # noqa: F401
    except ImportError:
        res = runner.invoke(app, ["compare-evals", str(DATA / "inspect")])
        assert res.exit_code == 1 and "pip install 'outperform[inspect]'" in res.output
    else:
        pytest.skip("inspect_ai is installed")
