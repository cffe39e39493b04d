"""Odd inputs around the registry of procedures and the one verdict per output (issue 25,
"It must show"; issue 24 items 3 and 4): each case with its exact outcome."""
from __future__ import annotations

import re
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import compare
from outperform._validation import InvalidInputError
from outperform.cli import app
from outperform.compare import compare_evals, leaderboard
from outperform.compare._registry import Procedure, choices, keys_text, posthoc_help, procedure
from outperform.data import load_demsar_table6
from outperform.report import render_markdown
from outperform.results import RankSets


def _t6():
    return load_demsar_table6()


def _holes(balanced=False):
    df = _t6().frame.copy()
    tasks = df["task"].unique()
    drop = (df["task"] == tasks[0]) & (df["model"] == "C4.5")
    return df.loc[~drop]


def _quiet(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()


def _record(**kw):
    base = dict(key="x", label="X", phrase="the x test", assumptions="a.", decides="pairwise",
                kernel="outperform.stats._ttest:paired_ttest", source="s")
    return Procedure(**{**base, **kw})


# (callable, exception class, message regex)
RAISES = [
    (lambda: procedure("bogus"), KeyError, r"no procedure 'bogus'.*add its record"),
    (lambda: procedure(""), KeyError, r"no procedure ''"),
    (lambda: procedure("Nemenyi"), KeyError, r"no procedure 'Nemenyi'"),
    (lambda: choices("alpha"), ValueError, r"option must be 'posthoc' or 'posthoc_missing'"),
    (lambda: keys_text("summary"), ValueError, r"slot must be one of"),
    (lambda: _record(decides="better"), ValueError, r"decides must be one of"),
    (lambda: _record(control="maybe"), ValueError, r"control one of"),
    (lambda: _record(reported_in=("table",)), ValueError, r"reported_in within"),
    (lambda: compare(_t6(), posthoc="Nemenyi"), InvalidInputError,
     r"posthoc must be one of \('auto', 'nemenyi'.*'durbin', 'none'\), got 'Nemenyi'"),
    (lambda: compare(_t6(), posthoc="bogus"), InvalidInputError, r"got 'bogus'"),
    (lambda: compare(_t6(), posthoc=("nemenyi", "nemenyi")), InvalidInputError,
     r"sequence of distinct procedures"),
    (lambda: compare(_t6(), posthoc=("auto", "holm")), InvalidInputError,
     r"other than 'auto' and 'none'"),
    (lambda: compare(_t6(), posthoc="conover", control="C4.5"), InvalidInputError,
     r"posthoc='conover' compares all pairs: drop control="),
    (lambda: compare(_t6(), posthoc="quade", control="C4.5"), InvalidInputError,
     r"posthoc='quade' compares all pairs"),
    (lambda: compare(_t6(), posthoc="li"), InvalidInputError,
     r"posthoc='li' compares each model with a control: pass control= \(--control\)"),
    (lambda: compare(_t6(), posthoc="bonferroni-dunn"), InvalidInputError,
     r"posthoc='bonferroni-dunn' compares each model with a control"),
    (lambda: compare(_t6(), posthoc="shaffer", control="C4.5"), InvalidInputError,
     r"posthoc='shaffer' compares all pairs: drop control= \(--control\), or choose one "
     r"that compares with a control: holm, hochberg, hommel, li, rom, bonferroni-dunn, "
     r"wilcoxon-holm"),
    (lambda: compare(_t6(), posthoc="none", control="C4.5"), InvalidInputError,
     r"posthoc='none' \(--posthoc none\) runs no comparison with the control"),
    (lambda: _quiet(lambda: compare(_holes(), posthoc="nemenyi")), InvalidInputError,
     r"posthoc='nemenyi' needs a result in every \(task, model\) cell.*"
     r"\('auto', 'wilcoxon-holm', 'durbin', 'none'\)"),
    (lambda: _quiet(lambda: compare(_holes(), posthoc=("nemenyi", "holm"))),
     InvalidInputError, r"choose one post-hoc procedure at a time"),
    (lambda: _quiet(lambda: compare(_holes(), posthoc="durbin")), InvalidInputError,
     r"posthoc='durbin' needs a balanced incomplete block design"),
    (lambda: _quiet(lambda: compare(_holes(), posthoc="durbin", control="C4.5")),
     InvalidInputError, r"posthoc='durbin' compares all pairs: drop control="),
    (lambda: compare(_t6(), posthoc="bergmann", control="C4.5"), InvalidInputError,
     r"posthoc='bergmann' compares all pairs"),
    (lambda: compare(_t6(), posthoc="nemenyi", control="C4.5"), InvalidInputError,
     r"posthoc='nemenyi' compares all pairs: drop control="),
    (lambda: compare(_t6(), posthoc=("nemenyi", "rom")), InvalidInputError,
     r"posthoc='rom' compares each model with a control"),
]


@pytest.mark.parametrize("call, error, message", RAISES)
def test_refused_with_a_message_that_names_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call()


CLI = [
    (["--posthoc", "bogus"], 1, "posthoc must be one of ('auto', 'nemenyi'"),
    (["--posthoc", "conover", "--control", "C4.5"], 1,
     "posthoc='conover' compares all pairs: drop control="),
    (["--posthoc", "li"], 1, "posthoc='li' compares each model with a control: pass control="),
]


@pytest.mark.parametrize("args, code, message", CLI)
def test_cli_refusals(tmp_path, args, code, message):
    path = tmp_path / "t6.csv"
    _t6().frame.to_csv(path, index=False)
    res = CliRunner().invoke(app, ["compare", str(path), *args])
    assert res.exit_code == code and message in " ".join(res.output.split())
    assert "Traceback" not in res.output


def test_unregistered_test_key_says_so_in_the_assumes_cell():
    rep = compare(_t6())
    odd = replace(rep, tests={**rep.tests, "my_test": rep.tests["friedman"]})
    md = render_markdown(odd)
    assert "not recorded: 'my_test' is not in outperform's registry of procedures." in md


def test_posthoc_help_names_every_value():
    text = posthoc_help()
    assert all(re.search(rf"\b{re.escape(p)}\b", text) for p in choices("posthoc"))


def test_conover_report_states_its_assumptions():
    # Before the registry the "assumes" cell of Conover (and Quade, Durbin) was empty.
    md = render_markdown(compare(_t6(), posthoc="conover"))
    assert "| post-hoc |  |" not in md and "Conover 1999 §5.8" in md


def test_wilcoxon_holm_with_a_control_tests_the_control_pairs():
    # Before: the control was ignored on complete tables (all six pairs tested) while the
    # rationale said "against the control".
    res = compare(_t6(), posthoc="wilcoxon-holm", control="C4.5").posthoc["wilcoxon-holm"]
    assert res.control == "C4.5" and len(list(res.pairs())) == 3
    alone = compare(_t6(), posthoc="wilcoxon-holm").posthoc["wilcoxon-holm"]
    np.testing.assert_array_equal(res.pvalue[0, 1:], alone.pvalue[0, 1:])  # same tests


def test_two_procedures_that_decide_differently_are_named():
    rep = compare(_t6(), control="C4.5", posthoc=("nemenyi", "holm"))
    assert ("the post-hoc procedures (Nemenyi, Holm, Bonferroni–Dunn) decide differently on "
            "C4.5 vs C4.5+m, C4.5 vs C4.5+m+cf") in " ".join(rep.warnings)


def test_identical_models_are_one_tier_with_no_disagreement():
    rng = np.random.default_rng(0)
    s = rng.integers(0, 2, 80).astype(float)
    df = pd.DataFrame({"model": np.repeat(["a", "b", "c"], 80),
                       "example": np.tile(np.arange(80), 3), "score": np.tile(s, 3)})
    board = _quiet(lambda: leaderboard(df, metric="score", n_resamples=200))
    assert board.rank_sets.tiers().tolist() == [1, 1, 1]
    assert board.disagreements() == () and board.disagreement_note() is None
    assert "may be the best (simultaneous 95%; tier 1): a, b, c" in board.format()


def test_tier_two_model_is_never_among_the_best():
    # A is significantly better than B; C (the worst estimate, but noisy) differs from
    # neither, so its simultaneous set reaches rank 1. The old walk put C in B's tier 2 while
    # listing it among "may be the best"; now tier 1 is exactly the top-1 set.
    better = np.zeros((3, 3), bool)
    better[0, 1] = True
    sets = np.array([[1, 2], [2, 3], [1, 3]])
    rs = RankSets(("A", "B", "C"), np.array([3.0, 2.0, 1.0]), np.ones(3), np.ones(3),
                  np.array([1, 2, 3]), sets, sets, sets, better, 2.0, 0.05, 100, 10, None,
                  "item", "multinomial", True, True)
    assert rs.tiers().tolist() == [1, 2, 1]
    assert set(rs.top_k(1)) == {n for n, t in zip(rs.names, rs.tiers()) if t == 1}


def test_demsar_leaderboard_names_where_tiers_and_letters_disagree():
    board = _quiet(lambda: leaderboard(_t6()))
    assert board.disagreements() == (("C4.5+m+cf", "C4.5+cf"), ("C4.5+m+cf", "C4.5"),
                                      ("C4.5+m", "C4.5"))
    assert ("the rank sets separate C4.5+m+cf vs C4.5+cf, C4.5+m+cf vs C4.5, C4.5+m vs "
            "C4.5, the letters' tests do not") in board.format()


def _evals(k, seed=1, n=120):
    rng = np.random.default_rng(seed)
    return pd.DataFrame([(f"m{j}", "qa", i, float(rng.random() < 0.6 + 0.1 * j))
                         for j in range(k) for i in range(n)],
                        columns=["model", "task", "item", "score"])


def test_two_models_keep_the_unadjusted_decision():
    rep = _quiet(lambda: compare_evals(_evals(2))).per_task["qa"][0]
    assert rep.details["decided_by"] == "paired difference of means, unadjusted p at α = 0.05"


def test_three_models_with_a_control_are_decided_by_the_letters_family():
    res = _quiet(lambda: compare_evals(_evals(3), control="m0"))
    assert [r.models for r in res.per_task["qa"]] == [("m0", "m1"), ("m0", "m2")]
    for rep in res.per_task["qa"]:
        assert "all pairs, holm-adjusted p = " in rep.details["decided_by"]
        assert "over the 3 pairs at α = 0.05" in rep.details["decided_by"]


def test_q1_with_a_control_notes_where_the_two_families_differ():
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 300)
    preds = {f"m{j}": np.where(rng.random(300) < p, y, 1 - y)
             for j, p in enumerate([0.7, 0.76, 0.7, 0.7, 0.7])}
    rep = _quiet(lambda: compare(pd.DataFrame({"y_true": y, **preds}), control="m0"))
    assert ("they decide differently on m0 vs m1; the conclusions' family is the one the "
            "control asks for.") in " ".join(rep.leaderboard.notes)
