"""The registry of procedures (outperform.compare._registry): every procedure compare() can
emit has a record with its assumptions, and every report states them (issue 24, item 3)."""
from __future__ import annotations

import io
import re
import warnings
from functools import cache

import numpy as np
import pandas as pd
import pytest
from rich.console import Console

from outperform import compare
from outperform.compare import compare_counts, compare_evals, compare_predictions
from outperform.compare._q3 import POSTHOC
from outperform.compare._q3_incomplete import INCOMPLETE_POSTHOC
from outperform.compare._registry import (DECIDES, SLOTS, choices, keys_text, label,
                                          posthoc_help, procedure, procedures)
from outperform.data import load_demsar_table2, load_demsar_table6
from outperform.report import load_schema, render_markdown, render_text

from _report_cases import cv_folds, predictions  # noqa: E402

#: posthoc values that compare each model with a control (they need one, or run with one).
WITH_CONTROL = {p.key for p in procedures() if p.posthoc and p.control == "required"}


def _quiet(build):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build()


def _incomplete_table() -> pd.DataFrame:
    """Demšar's Table 6 with two holes: an unbalanced pattern, so Skillings–Mack decides."""
    df = load_demsar_table6().frame.copy()
    first = df["task"].unique()
    drop = ((df["task"] == first[0]) & (df["model"] == "C4.5")) | \
        ((df["task"] == first[3]) & (df["model"] == "C4.5+m"))
    return df.loc[~drop]


def _bibd() -> pd.DataFrame:
    # Fano plane: 7 models in 7 blocks of 3, every pair once (Conover 1999 §5.9): Durbin.
    blocks = [(0, 1, 3), (1, 2, 4), (2, 3, 5), (3, 4, 6), (4, 5, 0), (5, 6, 1), (6, 0, 2)]
    x = np.full((7, 7), np.nan)
    rng = np.random.default_rng(3)
    for i, b in enumerate(blocks):
        x[i, list(b)] = rng.normal(size=3) + np.array(b) * 0.3
    return pd.DataFrame(x, columns=[f"m{j}" for j in range(7)]).assign(
        task=[f"d{i}" for i in range(7)])


def _evals(binary: bool, k: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    rows = []
    for task in ("qa", "math"):
        for m in range(k):
            s = (rng.random(120) < 0.6 + 0.05 * m) if binary else rng.random(120) + 0.05 * m
            rows += [(f"m{m}", task, i, float(v)) for i, v in enumerate(s)]
    return pd.DataFrame(rows, columns=["model", "task", "item", "score"])


def _posthoc_report(posthoc: str):
    control = "C4.5" if posthoc in WITH_CONTROL else None
    return _quiet(lambda: compare(load_demsar_table6(), posthoc=posthoc, control=control))


@cache
def emitted() -> dict:
    """Every report compare() and its siblings give on the inputs of the issue, by name."""
    t6 = load_demsar_table6()
    labels = predictions().assign(good=lambda d: (d.good >= 0.5).astype(int),
                                  weak=lambda d: (d.weak >= 0.5).astype(int))
    out = {f"posthoc={p}": _posthoc_report(p) for p in POSTHOC}
    out.update({
        "incomplete": _quiet(lambda: compare(_incomplete_table())),
        "incomplete durbin": _quiet(lambda: compare(_bibd(), metric="accuracy",
                                                    posthoc="durbin")),
        "incomplete none": _quiet(lambda: compare(_incomplete_table(), posthoc="none")),
        "Q3 two bayesian": _quiet(lambda: compare(load_demsar_table2(), bayesian=True,
                                                  rope=0.01)),
        "Q3 bayesian": _quiet(lambda: compare(t6, bayesian=True)),
        "Q3 folds": _quiet(lambda: compare(pd.concat([cv_folds(seed=s).assign(task=f"t{s}")
                                                      for s in range(8)]), bayesian=True)),
        "Q2 two": _quiet(lambda: compare(cv_folds(), rope=0.01)),
        "Q2 three": _quiet(lambda: compare(cv_folds(("lr", "svm", "rf"), (0.0, 0.02, 0.01)))),
        "Q1 labels": _quiet(lambda: compare(labels)),
        "Q1 non-inferiority": _quiet(lambda: compare_predictions(
            labels, control="weak", noninferiority_margin=0.05)),
        "Q1 log": _quiet(lambda: compare(predictions(), loss="log", rope=0.01)),
        "Q1 three": _quiet(lambda: compare(labels.assign(third=lambda d: 1 - d.weak))),
        "Q1 three log": _quiet(lambda: compare(predictions().assign(third=lambda d: 1 - d.weak),
                                               loss="log")),
        "counts": _quiet(lambda: compare_counts(pd.DataFrame(
            {"task": list("abcdef"), "n01": [3, 5, 2, 6, 4, 1], "n10": [9, 8, 7, 9, 10, 6]}))),
    })
    for binary in (True, False):
        res = _quiet(lambda: compare_evals(_evals(binary)))
        out.update({f"evals {binary} {t} {n}": r for t, reps in res.per_task.items()
                    for n, r in enumerate(reps)})
        out.update({f"evals {binary} over tasks": res.across_tasks} if res.across_tasks
                   else {})
    return out


def _keys(report) -> list[str]:
    return (list(report.tests) + list(report.posthoc)
            + (["mcb"] if getattr(report, "best", None) is not None else []))


def test_every_emitted_procedure_is_registered_with_assumptions():
    seen = {key for rep in emitted().values() for key in _keys(rep)}
    # The inputs reach the procedures the issue lists (a guard on the enumeration itself).
    assert {"skillings_mack", "durbin", "conover", "quade", "tost", "noninferiority",
            "mcnemar_midp", "hierarchical_mcnemar", "paired_difference", "poisson",
            "corrected_t_holm", "mcnemar_holm", "paired_t_holm"} <= seen
    missing = sorted(k for k in seen if not procedure(k).assumptions.strip())
    assert not missing, missing


def test_every_record_is_complete_and_its_kernel_exists():
    for p in procedures():
        assert p.label and p.phrase and p.assumptions and p.source, p.key
        assert p.decides in DECIDES and set(p.reported_in) <= set(SLOTS)
        assert callable(p.run()), p.key
        assert p.assumes("data sets").endswith("."), p.key
        assert "{" not in p.assumes("data sets"), p.key


def _assumption_rows(markdown: str) -> list[list[str]]:
    part = markdown.split("Tests run and what they assume", 1)[1].splitlines()[1:]
    start = next(n for n, ln in enumerate(part) if ln.startswith("|"))
    lines = []
    for ln in part[start:]:
        if not ln.startswith("|"):
            break
        lines.append(ln)
    return [[c.strip() for c in re.split(r"(?<!\\)\|", ln.strip("|"))] for ln in lines[2:]]


@pytest.mark.parametrize("name", [f"posthoc={p}" for p in POSTHOC]
                         + ["incomplete", "incomplete durbin", "incomplete none"])
def test_report_states_assumptions_of_every_test_it_shows(name):
    rep = emitted()[name]
    md = render_markdown(rep)
    rows = _assumption_rows(md)
    assert len(rows) == len(_keys(rep))
    units = {"Q1": "test examples", "Q2": "folds", "Q3": "data sets"}[rep.question]
    for (test, _role, assumes), key in zip(rows, _keys(rep)):
        assert assumes, (name, test)
        assert assumes == procedure(key).assumes(units).replace("|", "\\|"), key
    console = Console(record=True, width=200, file=io.StringIO())
    render_text(rep, console=console)
    text = console.export_text()
    for key in _keys(rep):
        # the text renderer wraps long cells: compare the words
        first_words = " ".join(procedure(key).assumes(units).split()[:4])
        assert first_words in " ".join(text.split()), (name, key)


def test_skillings_mack_decides_with_its_assumptions_stated():
    rep = emitted()["incomplete"]
    assert rep.recommended == "skillings_mack"
    rows = _assumption_rows(render_markdown(rep))
    decides = [r for r in rows if r[1] == "decides"]
    assert decides and "Skillings & Mack 1981" in decides[0][2]


def test_posthoc_values_and_labels_come_from_the_registry():
    assert POSTHOC == choices("posthoc") and INCOMPLETE_POSTHOC == choices("posthoc_missing")
    assert POSTHOC[0] == "auto" and POSTHOC[-1] == "none"
    for p in POSTHOC[1:-1]:
        rep = emitted()[f"posthoc={p}"]
        assert any(c.startswith(label(p)) for c in rep.conclusions), p
        assert procedure(p).phrase in rep.rationale, p


def test_posthoc_help_lists_every_value_with_its_words():
    text = posthoc_help()
    for p in POSTHOC:
        assert re.search(rf"(^|[ ;(]){re.escape(p)}( \(|;|$)", text), p
    for p in procedures():
        if p.posthoc:
            assert f"{p.key} ({p.help})" in text


def test_schema_text_lists_the_registered_keys():
    schema = load_schema()["properties"]
    for slot in ("tests", "posthoc"):
        listed = schema[slot]["description"].rsplit("Keys: ", 1)[1].rstrip(".").split(", ")
        assert listed == keys_text(slot).split(", ")
    reported = {k for rep in emitted().values() for k in rep.tests}
    assert reported <= set(keys_text("tests").split(", "))
    reported = {k for rep in emitted().values() for k in rep.posthoc}
    assert reported <= set(keys_text("posthoc").split(", "))


def test_unknown_key_and_option_are_named():
    with pytest.raises(KeyError, match="no procedure 'bogus'.*_procedures.py"):
        procedure("bogus")
    with pytest.raises(ValueError, match="option must be"):
        choices("alpha")
    with pytest.raises(ValueError, match="slot must be one of"):
        keys_text("summary")


def test_every_emitted_procedure_cites_works_in_references_bib():
    # issue 28: the methods paragraph cites each procedure by its record's references, whose
    # entries are in outperform/report/references.bib.
    from outperform.report._references import load_references

    keys = set(load_references())
    seen = {key for rep in emitted().values() for key in _keys(rep)}
    for key in seen:
        refs = procedure(key).references
        assert refs and set(refs) <= keys, (key, refs)
