"""compare() for Q3 end to end on Demšar (2006) Tables 2 and 6: the paper's conclusions."""
import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError, TooFewError
from outperform.compare import compare
from outperform.data import load_demsar_table2, load_demsar_table6


def test_table6_nemenyi_at_005_finds_no_pair():
    rep = compare(load_demsar_table6(), alpha=0.05)
    assert rep.recommended == "iman_davenport"
    # Demšar §3.2.4: F_F = 3.69 on (3, 39) df rejects at 0.05; chi2_F = 9.28.
    assert round(rep.tests["iman_davenport"].statistic, 2) == 3.69
    assert round(rep.tests["friedman"].statistic, 2) == 9.28
    nem = rep.posthoc["nemenyi"]
    assert round(nem.critical_difference, 2) == 1.25
    assert not nem.reject.any()
    assert rep.groups["nemenyi"] == [("C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5")]
    assert any("no significantly different pair" in c for c in rep.conclusions)


def test_table6_nemenyi_at_010_two_groups_and_c45cf_unplaced():
    rep = compare(load_demsar_table6(), alpha=0.10)
    nem = rep.posthoc["nemenyi"]
    assert round(nem.critical_difference, 2) == 1.12
    frame = nem.to_frame()
    significant = {frozenset((r.model_a, r.model_b)) for r in frame.itertuples() if r.reject}
    # Demšar: "the performance of pure C4.5 is significantly worse than that of C4.5+m and C4.5+m+cf"
    assert significant == {frozenset(("C4.5", "C4.5+m")), frozenset(("C4.5", "C4.5+m+cf"))}
    text = " ".join(rep.conclusions)
    assert "C4.5+m is significantly better than C4.5 " in text
    assert "not sufficient to tell which group C4.5+cf" in text


def test_table6_against_control_holm_and_bonferroni_dunn():
    rep = compare(load_demsar_table6(), alpha=0.05, control="C4.5")
    holm = rep.posthoc["holm"].to_frame()
    rejected = set(holm.loc[holm.reject, "model_b"]) | set(holm.loc[holm.reject, "model_a"])
    assert rejected - {"C4.5"} == {"C4.5+m+cf", "C4.5+m"}
    bd = rep.posthoc["bonferroni-dunn"]
    # Demšar prints CD = 2.394 * sqrt(4*5/(6*14)) = 1.16; the product is 1.1682 (he truncated).
    assert bd.critical_difference == pytest.approx(2.394 * np.sqrt(20 / 84), abs=1e-3)
    assert int(bd.critical_difference * 100) == 116
    bd_frame = bd.to_frame()
    assert set(bd_frame.loc[bd_frame.reject, ["model_a", "model_b"]].to_numpy().ravel()) == {
        "C4.5", "C4.5+m+cf"}


def test_table6_printed_version_has_the_tie():
    rep = compare(load_demsar_table6(version="printed"))
    ranks = {r["model"]: round(r["average_rank"], 3) for r in rep.summary}
    assert ranks == {"C4.5": 3.143, "C4.5+m": 2.0, "C4.5+cf": 2.929, "C4.5+m+cf": 1.929}
    assert round(rep.tests["friedman"].statistic, 3) == 9.857


def test_two_models_recommend_wilcoxon_and_report_sign_test():
    rep = compare(load_demsar_table2())
    assert rep.recommended == "wilcoxon"
    w = rep.tests["wilcoxon"]
    assert w.pvalue < 0.05 and w.statistic == 12  # T = min(R+, R−) = 12 (Demšar Table 2)
    assert "C4.5+m is significantly better than C4.5" in rep.conclusions[0]
    sign = rep.tests["sign"]
    # Demšar §3.1.4: C4.5+m wins 11 of 14 counting one of the two ties. Exact two-sided binomial
    # p = 2 * P(X >= 11 | n = 14) = 2 * 470 / 2**14; Demšar's Table 3 (w = 11 at N = 14) follows
    # the normal approximation, whose p = 0.0325 is below 0.05 (see tests/stats/test_sign.py).
    assert sign.details["losses"] + sign.details["ties_credited"] == 11
    assert sign.pvalue == pytest.approx(2 * 470 / 2**14)
    assert any("t-test" in w for w in rep.warnings)


def test_lower_is_better_flips_the_ranking():
    t = load_demsar_table6().score_matrix().to_frame().rename_axis("task").reset_index()
    err = t.assign(**{c: 1 - t[c] for c in t.columns if c != "task"})
    rep_err = compare(err.melt(id_vars="task", var_name="model", value_name="error"))
    rep_auc = compare(load_demsar_table6())
    assert [r["model"] for r in rep_err.summary] == [r["model"] for r in rep_auc.summary]
    assert rep_err.tests["friedman"].statistic == pytest.approx(rep_auc.tests["friedman"].statistic)


def test_warns_when_posthoc_rejects_but_omnibus_does_not():
    # Eight models, one 1.2 sd ahead of seven equal ones: the omnibus test is diluted by the
    # seven (Iman–Davenport p = 0.054 for this seed) while Holm still rejects a pair.
    rng = np.random.default_rng(15)
    x = rng.normal(size=(12, 8))
    x[:, 0] += 1.2
    rep = compare(pd.DataFrame(x, columns=[f"m{i}" for i in range(8)]), alpha=0.05,
                  posthoc="holm")
    assert rep.tests["iman_davenport"].pvalue >= 0.05 and rep.posthoc["holm"].reject.any()
    assert any("not supported" in w for w in rep.warnings)
    # A significant omnibus test gives no such warning.
    assert not any("not supported" in w for w in compare(load_demsar_table6()).warnings)


def test_bad_input_is_reported():
    with pytest.raises(InvalidInputError, match="control"):
        compare(load_demsar_table6(), control="nope")
    with pytest.raises(InvalidInputError, match="posthoc"):
        compare(load_demsar_table6(), posthoc="tukey-ish")
    small = pd.DataFrame({"task": ["a", "b", "c"], "A": [1, 2, 3.0], "B": [2, 1, 3.5]})
    with pytest.raises(TooFewError):
        compare(small)


def test_unknown_direction_warns():
    df = load_demsar_table6().frame.rename(columns={"auc": "goodness"})
    rep = compare(df)
    assert any("assumed higher-is-better" in w for w in rep.warnings)


def test_report_serialises():
    import json
    rep = compare(load_demsar_table6(), control="C4.5")
    d = json.loads(json.dumps(rep.to_dict()))
    assert d["schema_version"] and d["control"] == "C4.5"
    assert set(d["tests"]) >= {"friedman", "iman_davenport"}
    assert rep.to_frame().shape[0] == 4
