"""outperform.gate: the tests it runs (against scipy, statsmodels and a published table),
Holm across tasks, the verdict, the sign convention, repeats, and real logs."""
from math import comb

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import outperform
from outperform.compare import gate
from _paths import FIXTURES

LM_EVAL = FIXTURES / "evals" / "lm_eval"
INSPECT = FIXTURES / "evals" / "inspect"


def _runs(base, cand, task="qa", clusters=None):
    b = pd.DataFrame({"model": "v1", "task": task, "item": np.arange(len(base)),
                      "score": np.asarray(base, dtype=float)})
    if clusters is not None:
        b["cluster"] = clusters
    return b, b.assign(model="v2", score=np.asarray(cand, dtype=float))


def _binary(n01, n10, n11, n00):
    """Baseline and candidate 0/1 scores with n01 items the candidate misses and the
    baseline gets, n10 the reverse."""
    base = [1] * n01 + [0] * n10 + [1] * n11 + [0] * n00
    cand = [0] * n01 + [1] * n10 + [1] * n11 + [0] * n00
    return _runs(base, cand)


def test_exported_from_the_package_and_compare():
    assert outperform.gate is outperform.compare.gate is gate


def test_binary_without_margin_is_the_exact_mcnemar_test():
    b, c = _binary(9, 3, 150, 38)
    res = gate(b, c)
    t = res.tasks[0]
    # scipy.stats.binomtest(9, 12, 0.5, alternative="greater"): the candidate is the one wrong
    assert t.pvalue_regression == pytest.approx(
        stats.binomtest(9, 12, 0.5, alternative="greater").pvalue, rel=1e-12)
    assert t.difference == pytest.approx((3 - 9) / 200)
    assert (t.counts["n01"], t.counts["n10"]) == (9, 3)
    assert t.decision == res.verdict == "pass" and t.pvalue_pass is None
    b, c = _binary(14, 3, 150, 33)     # binomtest(14, 17, .5, "greater") = 0.0064
    assert gate(b, c).verdict == "regression"


def test_binary_with_margin_is_tangos_score_test_on_the_published_table():
    # Fagerland, Lydersen & Laake (2017) ch. 8, Cavo et al. (2012): 16 and 6 discordant of
    # 161; Tango's 95% interval [-0.1240, -0.0054] (R contingencytables)
    b, c = _binary(16, 6, 100, 39)
    res = gate(b, c, margin=0.124, alpha=0.025)
    t = res.tasks[0]
    assert [round(t.ci_low, 4), round(t.ci_high, 4)] == [-0.124, -0.0054]
    assert t.pvalue_pass == pytest.approx(0.025, abs=5e-4)      # the interval's lower end
    assert t.difference == pytest.approx(-10 / 161)
    assert "Tango" in t.test
    # a margin well beyond the interval passes; one inside it is inconclusive
    assert gate(b, c, margin=0.2, alpha=0.025).verdict == "pass"
    assert gate(b, c, margin=0.05, alpha=0.025).verdict == "inconclusive"


def test_graded_scores_are_the_paired_t_test():
    rng = np.random.default_rng(1)
    base = rng.random(300)
    cand = np.clip(base + rng.normal(-0.01, 0.1, 300), 0, 1)
    b, c = _runs(base, cand)
    t = gate(b, c, margin=0.03).tasks[0]
    # scipy.stats.ttest_rel(cand + 0.03, base, alternative=...)
    assert t.pvalue_regression == pytest.approx(
        stats.ttest_rel(cand + 0.03, base, alternative="less").pvalue, rel=1e-10)
    assert t.pvalue_pass == pytest.approx(
        stats.ttest_rel(cand + 0.03, base, alternative="greater").pvalue, rel=1e-10)
    lo, hi = stats.ttest_rel(cand, base).confidence_interval(0.90)
    assert (t.ci_low, t.ci_high) == pytest.approx((lo, hi), rel=1e-10)
    assert t.decision == "pass" and not t.binary


@pytest.mark.slow
def test_clusters_are_the_cluster_robust_z_of_statsmodels():
    import statsmodels.api as sm

    rng = np.random.default_rng(2)
    g = np.repeat(np.arange(30), 10)
    base = rng.random(300)
    cand = np.clip(base + rng.normal(0, 0.1, 300) + np.repeat(rng.normal(0, .03, 30), 10), 0, 1)
    b, c = _runs(base, cand, clusters=g.astype(str))
    t = gate(b, c, margin=0.02, cluster="cluster").tasks[0]
    # statsmodels OLS(d + δ, 1).fit(cov_type="cluster", cov_kwds={"groups": g})
    fit = sm.OLS(cand - base + 0.02, np.ones(300)).fit(cov_type="cluster",
                                                         cov_kwds={"groups": g})
    assert t.pvalue_regression == pytest.approx(stats.norm.cdf(fit.tvalues[0]), rel=1e-8)
    assert t.n_clusters == 30 and "cluster-robust" in t.test


def test_holm_across_tasks_and_the_verdict():
    from statsmodels.stats.multitest import multipletests

    parts = []
    for task, (n01, n10) in {"a": (12, 2), "b": (9, 3), "c": (5, 5)}.items():
        b, c = _binary(n01, n10, 150, 200 - 150 - n01 - n10)
        parts.append((b.assign(task=task), c.assign(task=task)))
    base = pd.concat([p[0] for p in parts])
    cand = pd.concat([p[1] for p in parts])
    res = gate(base, cand)
    raw = [t.pvalue_regression for t in res.tasks]
    adjusted = multipletests(raw, method="holm")[1]
    assert [t.pvalue_regression_adjusted for t in res.tasks] == pytest.approx(adjusted)
    # binomtest(12, 14, .5, "greater") = 0.0065, x3 by Holm = 0.0195 < 0.05: a regression
    assert [t.decision for t in res.tasks] == ["regression", "pass", "pass"]
    assert res.verdict == "regression" and res.overall.n_items == 600
    # one inconclusive task and no regression: inconclusive
    res = gate(base[base.task != "a"], cand[cand.task != "a"], margin=0.01)
    assert {t.decision for t in res.tasks} == {"inconclusive"} and res.verdict == "inconclusive"


def test_sign_convention_follows_the_metric_direction():
    base, cand = np.full(50, 2.0), np.full(50, 1.5)
    cand[:25] = 1.4                                         # a lower loss: better
    b, c = _runs(base, cand)
    res = gate(b, c, higher_is_better=False, margin=0.1)
    assert res.tasks[0].difference == pytest.approx(0.55)   # baseline − candidate: positive
    assert res.verdict == "pass" and not res.higher_is_better
    assert gate(c, b, higher_is_better=False, margin=0.1).verdict == "regression"


def test_the_row_form_gives_the_gates_pvalues():
    from outperform.compare._gate_aa import gate_pvalues

    b, c = _binary(9, 3, 150, 38)
    d = (c.score - b.score).to_numpy()[None, :]
    for margin in (None, 0.05):
        t = gate(b, c, margin=margin).tasks[0]
        pr, pp = gate_pvalues(d, binary=True, margin=margin)
        assert pr[0] == pytest.approx(t.pvalue_regression, rel=1e-12)
        assert (pp is None) == (t.pvalue_pass is None)
        if pp is not None:
            assert pp[0] == pytest.approx(t.pvalue_pass, rel=1e-12)
    rng = np.random.default_rng(4)
    base = rng.random(80)
    b, c = _runs(base, base + rng.normal(0, .1, 80))
    t = gate(b, c, margin=0.02).tasks[0]
    pr, pp = gate_pvalues((c.score - b.score).to_numpy()[None, :], binary=False, margin=0.02)
    assert (pr[0], pp[0]) == pytest.approx((t.pvalue_regression, t.pvalue_pass), rel=1e-10)


@pytest.mark.slow
def test_repeats_averaged_with_their_within_item_variance_and_pass_at_k():
    res = gate(INSPECT / "run_a.eval", INSPECT / "run_b.json", metric="match")
    t = res.tasks[0]
    assert t.repeats["epochs"] == {"baseline": 2, "candidate": 2}
    logs = outperform.data.read_eval_logs([INSPECT / "run_a.eval"])
    rows = logs.scores[logs.scores.metric == "match"]
    per_item = rows.groupby("example", observed=True)["score"]
    assert t.baseline_mean == pytest.approx(per_item.mean().mean())
    assert t.repeats["within_item_variance"]["baseline"] == pytest.approx(
        per_item.var(ddof=1).mean())
    # pass@2 of 2 samples: 1 − C(2 − c, 2) / C(2, 2), i.e. 1 if any sample is right
    k2 = gate(INSPECT / "run_a.eval", INSPECT / "run_b.json", metric="match",
              samples="pass@k", k=2).tasks[0]
    c = per_item.sum()
    want = np.mean([1 - comb(2 - int(x), 2) / comb(2, 2) for x in c])
    assert k2.baseline_mean == pytest.approx(want)
    kk = gate(INSPECT / "run_a.eval", INSPECT / "run_b.json", metric="match",
              samples="k-of-k", k=2).tasks[0]
    assert kk.baseline_mean == pytest.approx(np.mean([comb(int(x), 2) for x in c]))


def test_lm_eval_runs_of_two_models():
    res = gate(LM_EVAL / "EleutherAI__pythia-160m", LM_EVAL / "EleutherAI__pythia-410m",
               margin=0.02)
    arc = res.tasks[0]
    assert (arc.task, arc.n_items, arc.counts["n01"], arc.counts["n10"]) == ("mini_arc", 40, 2, 8)
    assert res.baseline == "EleutherAI/pythia-160m" and res.verdict == "pass"
    assert gate(LM_EVAL / "EleutherAI__pythia-410m",
                LM_EVAL / "EleutherAI__pythia-160m").tasks[0].pvalue_regression == \
        pytest.approx(stats.binomtest(8, 10, 0.5, alternative="greater").pvalue)


def test_real_lm_eval_log_against_itself():
    run = FIXTURES / "real" / "lm_eval" / "v0.4.2-94_samples_json"
    res = gate(run, run, margin=0.01)
    t = res.tasks[0]
    assert t.n_items == 609 and t.difference == 0 and t.counts["n01"] == t.counts["n10"] == 0
    assert res.verdict == "pass" and any("same file" in w for w in res.warnings)


def test_result_round_trips_to_json_and_frame():
    b, c = _binary(9, 3, 150, 38)
    res = gate(b, c, margin=0.05)
    d = res.to_dict()
    assert d["verdict"] == res.verdict and d["tasks"][0]["n_items"] == 200
    assert list(res.to_frame()["task"]) == ["qa"]
    assert "GateResult(verdict=" in repr(res)


def test_swapping_the_runs_mirrors_the_difference_and_its_interval():
    rng = np.random.default_rng(5)
    base = rng.random(120)
    b, c = _runs(base, np.clip(base + rng.normal(0.01, 0.1, 120), 0, 1))
    one, two = gate(b, c, margin=0.05).tasks[0], gate(c, b, margin=0.05).tasks[0]
    assert one.difference == pytest.approx(-two.difference)
    assert (one.ci_low, one.ci_high) == pytest.approx((-two.ci_high, -two.ci_low))
    # without a margin, the regression p of one way is the "improvement" p of the other
    assert gate(b, c).tasks[0].pvalue_regression == pytest.approx(
        1 - gate(c, b).tasks[0].pvalue_regression)


def test_a_loss_metric_is_lower_is_better_by_its_name():
    b = pd.DataFrame({"model": "v1", "item": np.arange(40), "metric": "log_loss",
                      "score": np.linspace(1, 2, 40)})
    c = b.assign(model="v2", score=b.score - 0.1)
    res = gate(b, c, margin=0.05)
    assert not res.higher_is_better and res.tasks[0].difference == pytest.approx(0.1)
    assert res.verdict == "pass"
