"""Report tables a reader can follow (issue 12, item 8).

Every number the tables are checked against is computed here from the input data (or is
Demšar's published value), not taken from the report.
"""
import io
import math
import re

import numpy as np
import pandas as pd
import pytest
from rich.console import Console

from _report_cases import CASES, cv_folds, report
from outperform import compare
from outperform.data import load_demsar_table2, load_demsar_table6
from outperform.report import render_markdown, render_text

# Demšar (2006) Table 6: average ranks (lower is better).
DEMSAR_RANKS = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}


def _md_tables(md: str) -> dict[str, tuple[list[str], list[list[str]]]]:
    """{title: (header, rows)} of the tables of a Markdown report (each under a heading)."""
    out = {}
    for block in re.split(r"\n#+ ", md)[1:]:
        title, *lines = block.splitlines()
        cells = [[c.strip() for c in line.strip().strip("|").split("|")]
                 for line in lines if line.startswith("|")]
        if cells:
            out[title] = (cells[0], cells[2:])
    return out


def _text(rep) -> str:
    buffer = io.StringIO()
    render_text(rep, console=Console(file=buffer, width=400, color_system=None))
    return buffer.getvalue()


def _q1_three() -> tuple[pd.DataFrame, dict[str, float]]:
    rng = np.random.default_rng(3)
    n, errors = 400, {"mid": 90, "best": 40, "worst": 160}
    y = rng.integers(0, 2, n)
    table = {"y_true": y}
    for name, k in errors.items():
        pred = y.copy()
        wrong = rng.choice(n, k, replace=False)
        pred[wrong] = 1 - pred[wrong]
        table[name] = pred
    return pd.DataFrame(table), {m: k / n for m, k in errors.items()}


def _pair_rows(md: str):
    tables = [(h, rows) for title, (h, rows) in _md_tables(md).items()
              if title.startswith("Post-hoc")]
    assert tables, md
    for header, rows in tables:
        assert header[:2] == ["A", "B"] and header[2].startswith("A better by ("), header
        yield header[2], rows


@pytest.mark.parametrize("case", ["q1", "q2", "q3", "q3_control"])
def test_pair_rows_put_the_better_model_first_with_its_advantage(case):
    if case == "q1":
        df, truth = _q1_three()            # error rates, lower is better
        rep, sign, unit = compare(df), -1, "error rate"
    elif case == "q2":
        folds = cv_folds(("lr", "svm", "rf"), (0.0, 0.02, 0.01))
        truth = folds.groupby("model")["accuracy"].mean().to_dict()
        rep, sign, unit = compare(folds), 1, "mean accuracy"
    else:
        truth, sign, unit = DEMSAR_RANKS, -1, "average rank"
        rep = compare(load_demsar_table6(), control="C4.5" if case == "q3_control" else None)
    for header, rows in _pair_rows(render_markdown(rep)):
        assert header == f"A better by ({unit})"
        for a, b, by, *_ in rows:
            advantage = sign * (truth[a] - truth[b])
            assert advantage >= 0, (a, b)               # A is the better one by the data
            assert float(by) == pytest.approx(advantage, abs=6e-4), (a, b, by)


@pytest.mark.parametrize("name", CASES)
def test_the_marker_the_heading_promises_is_on_the_row(name):
    rep = report(name)
    for text in (_text(rep), render_markdown(rep)):
        lines = text.splitlines()
        # The heading says "(← the test that decides)" (rich may wrap it).
        promises = [line for line in lines if "(← the test" in line]
        marked = [line for line in lines if "←" in line and "(← the test" not in line]
        assert len(marked) == len(promises) == (1 if rep.recommended else 0), text
        if rep.recommended:
            assert rep.tests[rep.recommended].method.split(" (")[0] in marked[0]


def test_average_ranks_in_one_format():
    md = render_markdown(report("table6_005"))
    header, rows = _md_tables(md)["Models, best first"]
    ranks = {r[0]: r[header.index("average rank")] for r in rows}
    assert ranks == {m: f"{v:.3f}" for m, v in DEMSAR_RANKS.items()}     # 2.000, not 2


def test_rope_stated_with_value_and_units_and_explained_once():
    # Q3 Bayesian: accuracy-like scores get ROPE 0.01 (Benavoli et al. 2017).
    md = render_markdown(compare(load_demsar_table2(), bayesian=True))
    assert "ROPE ±0.01 auc" in md
    assert md.count("region of practical equivalence") == 1
    # Q2: 0.1 x sd of the fold differences of each pair (Williams 2026 §5.2), computed here.
    folds = cv_folds(("lr", "svm", "rf"), (0.0, 0.02, 0.01))
    wide = folds.pivot_table(index=["run", "fold"], columns="model", values="accuracy")
    md = render_markdown(compare(folds))
    assert md.count("region of practical equivalence") == 1
    (header, rows), = [t for title, t in _md_tables(md).items() if title.startswith("Bayesian")]
    assert header[-1] == "ROPE (accuracy)"
    for a, b, *_, width in rows:
        assert width == f"±{0.1 * np.std(wide[a] - wide[b], ddof=1):.3g}"
    two = cv_folds()
    wide = two.pivot_table(index=["run", "fold"], columns="model", values="accuracy")
    width = 0.1 * np.std(wide["lr"] - wide["svm"], ddof=1)
    assert f"ROPE ±{width:.3g} accuracy" in render_markdown(compare(two))


def test_infinite_iman_davenport_f_is_explained():
    rng = np.random.default_rng(0)
    n, k = 8, 4
    rows = [dict(task=f"t{t}", model=m, accuracy=0.7 + 0.05 * i + rng.uniform(0, 0.01))
            for t in range(n) for i, m in enumerate("abcd")]
    rep = compare(pd.DataFrame(rows))
    assert math.isinf(rep.tests["iman_davenport"].statistic)
    # Every data set ranks the models a < b < c < d: probability (k!)^(1 - N) under H0.
    assert rep.tests["iman_davenport"].pvalue == pytest.approx(math.factorial(k) ** (1 - n))
    assert "every data set ranks the algorithms in the same order" in rep.conclusions[0]
