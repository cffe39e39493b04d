"""compare(omnibus="anova"): the repeated-measures ANOVA and its paired post-hoc tests are
reachable from compare() (issue 25 item 7), checked against statsmodels' AnovaRM and scipy's
paired t-test with statsmodels' Holm adjustment on Demšar's (2006) Table 6."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.anova import AnovaRM
from statsmodels.stats.multitest import multipletests

from outperform._validation import InvalidInputError
from outperform.compare import compare
from outperform.data import load_demsar_table6
from outperform.report import render_markdown


def _wide():
    table = load_demsar_table6()
    frame = table if isinstance(table, pd.DataFrame) else table.frame
    if "model" in frame.columns:   # long form: one row per (task, model)
        metric = [c for c in frame.columns if c not in ("task", "model")][0]
        frame = frame.pivot(index="task", columns="model", values=metric)
    return frame


def test_anova_equals_statsmodels_anovarm_on_demsar_table6():
    # Before: compare() had no route to the repeated-measures ANOVA (TypeError on omnibus=).
    wide = _wide()
    rep = compare(load_demsar_table6(), omnibus="anova")
    long = wide.reset_index().melt(id_vars=wide.index.name or "index", var_name="model",
                                   value_name="score")
    long.columns = ["dataset", "model", "score"]
    # peer: statsmodels AnovaRM(long, "score", "dataset", within=["model"])
    ref = AnovaRM(long, "score", "dataset", within=["model"]).fit().anova_table.iloc[0]
    res = rep.tests["repeated_measures_anova"]
    assert rep.recommended == "repeated_measures_anova"
    assert res.statistic == pytest.approx(ref["F Value"], rel=1e-10)
    assert res.pvalue == pytest.approx(ref["Pr > F"], rel=1e-8)
    assert res.df == (ref["Num DF"], ref["Den DF"])
    assert "omnibus='anova'" in rep.rationale and "repeated-measures ANOVA" in rep.rationale
    assert any("Demšar (2006 §3.2.1) advises the Friedman test" in w for w in rep.warnings)
    md = render_markdown(rep)
    assert "Repeated-measures ANOVA" in md and "sphericity" in md


def test_paired_posthoc_equals_scipy_with_holm():
    wide = _wide()
    rep = compare(load_demsar_table6(), omnibus="anova")
    post = rep.posthoc["paired_t_holm"]
    names = list(post.names)
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    # peer: scipy.stats.ttest_rel per pair, statsmodels multipletests(method="holm")
    raw = [stats.ttest_rel(wide[names[i]], wide[names[j]]).pvalue for i, j in pairs]
    adjusted = multipletests(raw, method="holm")[1]
    for (i, j), p, a in zip(pairs, raw, adjusted):
        assert post.pvalue[i, j] == pytest.approx(p, rel=1e-9)
        assert post.pvalue_adjusted[i, j] == pytest.approx(a, rel=1e-9)
        assert post.reject[i, j] == (a < 0.05)


def test_control_gets_holm_over_its_pairs_only():
    wide = _wide()
    rep = compare(load_demsar_table6(), omnibus="anova", control="C4.5", alpha=0.10)
    post = rep.posthoc["paired_t_holm"]
    c = post.names.index("C4.5")
    others = [j for j in range(len(post.names)) if j != c]
    raw = [stats.ttest_rel(wide["C4.5"], wide[post.names[j]]).pvalue for j in others]
    adjusted = multipletests(raw, method="holm")[1]
    np.testing.assert_allclose(post.pvalue_adjusted[c, others], adjusted, rtol=1e-9)
    # C4.5+m and C4.5+m+cf beat C4.5 at alpha = 0.10 (adjusted p = 0.041 each)
    better = {s.split(" is significantly")[0].split(": ")[1] for s in rep.conclusions
              if "significantly better than C4.5 " in s}
    assert better == {post.names[j] for j, a in zip(others, adjusted) if a < 0.10}


@pytest.mark.parametrize("options, match", [
    (dict(omnibus="tukey"), "omnibus must be one of"),
    (dict(omnibus="anova", posthoc="nemenyi"), "rank test of the Friedman route"),
    (dict(omnibus="anova", posthoc=("holm", "nemenyi")), "rank test of the Friedman route"),
])
def test_bad_combinations_are_refused(options, match):
    with pytest.raises(InvalidInputError, match=match):
        compare(load_demsar_table6(), **options)


def test_two_models_and_missing_cells_are_refused():
    wide = _wide()
    with pytest.raises(InvalidInputError, match="k >= 3 models"):
        compare(wide.iloc[:, :2].reset_index(drop=True), omnibus="anova",
                higher_is_better=True)
    gappy = wide.reset_index(drop=True).copy()
    gappy.iloc[0, 0] = np.nan
    with pytest.raises(InvalidInputError, match="every \\(task, model\\) cell"):
        compare(gappy, omnibus="anova", higher_is_better=True)


def test_omnibus_is_ignored_with_a_warning_on_one_task():
    rng = np.random.default_rng(0)
    rows = [{"task": "t", "model": m, "run": 0, "fold": f, "accuracy": 0.8 + d + rng.normal(0, .01)}
            for f in range(10) for m, d in (("A", 0.01), ("B", 0.0))]
    rep = compare(pd.DataFrame(rows), omnibus="anova")
    assert any("option omnibus='anova' does not apply to Q2" in w for w in rep.warnings)


def test_posthoc_none_runs_the_anova_alone():
    rep = compare(load_demsar_table6(), omnibus="anova", posthoc="none")
    assert rep.posthoc == {} and "no post-hoc test" in rep.rationale


def test_anova_report_meets_the_json_schema():
    from outperform.report import validate_report

    validate_report(compare(load_demsar_table6(), omnibus="anova", control="C4.5"))
