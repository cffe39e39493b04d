"""compare(posthoc="mcb" | "dunnett") over data sets (compare/_q3_best.py, _q3.py)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from outperform import compare
from outperform.data import load_demsar_table6
from outperform.report import render_markdown, validate_report
from outperform.stats import dunnett_paired, mcb


def _quiet(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()


@pytest.fixture(scope="module")
def table():
    return load_demsar_table6()


def test_mcb_report_holds_the_kernel_result_and_its_words(table):
    rep = _quiet(lambda: compare(table, posthoc="mcb"))
    sm = table.score_matrix()
    ref = mcb(sm.values, names=sm.models, higher_is_better=sm.higher_is_better)
    np.testing.assert_array_equal(rep.best.lower, ref.lower)
    np.testing.assert_array_equal(rep.best.upper, ref.upper)
    assert rep.best.unit == "task" and rep.posthoc == {}
    said = [c for c in rep.conclusions if c.startswith("Hsu's MCB")]
    assert said and all(m in said[0] for m in ref.candidates())
    assert "Hsu's multiple comparisons with the best" in rep.rationale
    d = validate_report(rep)
    assert d["details"]["best"]["models"][0]["could_be_best"] is True
    md = render_markdown(rep)
    assert "Comparison with the best (Hsu's MCB)" in md and "with the best" in md


def test_mcb_beside_an_all_pairs_procedure_keeps_the_letters(table):
    rep = _quiet(lambda: compare(table, posthoc=("nemenyi", "mcb")))
    assert list(rep.posthoc) == ["nemenyi"] and rep.best is not None
    assert rep.details["letters_from"] == "nemenyi"


def test_dunnett_against_the_control_names_the_better_by_the_means(table):
    rep = _quiet(lambda: compare(table, posthoc="dunnett", control="C4.5"))
    sm = table.score_matrix()
    ref = dunnett_paired(sm.values, control="C4.5", names=sm.models)
    res = rep.posthoc["dunnett"]
    np.testing.assert_array_equal(res.pvalue_adjusted, ref.pvalue_adjusted)
    rejected = [c for c in rep.conclusions if c.startswith("Dunnett:")]
    c = sm.models.index("C4.5")
    assert len(rejected) == int(res.reject[c].sum())
    means = dict(zip(sm.models, sm.values.mean(axis=0)))
    for sentence in rejected:
        better = sentence.split(": ", 1)[1].split(" is significantly")[0]
        worse = sentence.split("better than ", 1)[1].split(" (")[0]
        assert means[better] > means[worse]
    assert "bonferroni-dunn" not in rep.posthoc
    validate_report(rep)
