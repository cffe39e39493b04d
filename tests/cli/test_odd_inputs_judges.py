"""Odd inputs of judged evaluations (compare-evals --gold, plan gold-labels, the agreement
and PPI kernels): each row an input and its exact outcome."""
import warnings

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import InvalidInputError
from outperform.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    d = tmp_path_factory.mktemp("judges")
    rng = np.random.default_rng(0)
    y = {m: (rng.random(120) < p).astype(int) for m, p in (("A", .7), ("B", .5))}
    f = {m: np.where(v == 1, rng.random(120) < .9, rng.random(120) < .3).astype(int)
         for m, v in y.items()}
    pd.DataFrame([{"model": m, "item": i, "passage": i // 10, "score": int(f[m][i])}
                  for m in y for i in range(120)]).to_csv(d / "evals.csv", index=False)
    pd.DataFrame([{"task": t, "model": m, "item": i, "score": int(f[m][i])}
                  for t in ("t1", "t2") for m in y for i in range(120)]
                 ).to_csv(d / "two_tasks.csv", index=False)
    gold = pd.DataFrame([{"model": m, "item": i, "label": int(y[m][i])}
                         for m in y for i in range(30)])
    gold.to_csv(d / "gold.csv", index=False)
    gold.rename(columns={"label": "verdict"}).to_csv(d / "no_score.csv", index=False)
    gold.assign(label=gold["label"].astype(str).replace("1", "yes")).to_csv(
        d / "text_label.csv", index=False)
    pd.concat([gold, gold.head(1)]).to_csv(d / "twice.csv", index=False)
    gold.assign(item=gold["item"] + 1000).to_csv(d / "elsewhere.csv", index=False)
    pd.concat([gold[gold["model"] == "A"], gold[gold["model"] == "B"].head(1)]).to_csv(
        d / "one_label_b.csv", index=False)
    gold.assign(item=np.where(gold["model"] == "B", gold["item"] + 30, gold["item"])).to_csv(
        d / "disjoint.csv", index=False)
    return d


CASES = [
    # (id, argv, exit code, substring of the output)
    ("gold-missing-file", "compare-evals {d}/evals.csv --gold {d}/nothing.csv", 1,
     "no such file"),
    ("gold-no-score-column", "compare-evals {d}/evals.csv --gold {d}/no_score.csv", 1,
     "missing human score"),
    ("gold-text-labels", "compare-evals {d}/evals.csv --gold {d}/text_label.csv", 1,
     "must hold numbers on every row"),
    ("gold-labelled-twice", "compare-evals {d}/evals.csv --gold {d}/twice.csv", 1,
     "labelled twice"),
    ("gold-matches-nothing", "compare-evals {d}/evals.csv --gold {d}/elsewhere.csv", 1,
     "no gold label matches a (model, item)"),
    ("gold-one-label-for-a-model", "compare-evals {d}/evals.csv --gold {d}/one_label_b.csv",
     1, "at least 2 human labels per model; too few for B (1)"),
    ("gold-disjoint-items-per-model", "compare-evals {d}/evals.csv --gold {d}/disjoint.csv",
     0, "no corrected paired difference for A vs B: it needs at least 2 items labelled"),
    ("gold-no-task-several-tasks", "compare-evals {d}/two_tasks.csv --gold {d}/gold.csv", 1,
     "add a task column"),
    ("gold-clusters-ignored", "compare-evals {d}/evals.csv --cluster passage --gold "
     "{d}/gold.csv", 0, "the clusters are not used by the correction"),
    ("plan-gold-out-of-reach", "plan gold-labels --width 0.01 --correlation 0.9 --n-items "
     "500", 1, "out of reach with 500 items"),
    ("plan-gold-bad-correlation", "plan gold-labels --width 0.1 --correlation 1.5", 1,
     "correlation must lie in [-1, 1]"),
    ("plan-gold-zero-width", "plan gold-labels --width 0 --correlation 0.5", 1,
     "width and sd must be positive"),
]


@pytest.mark.parametrize("case_id, argv, code, words", CASES, ids=[c[0] for c in CASES])
def test_odd_input(d, case_id, argv, code, words):
    res = runner.invoke(app, argv.format(d=d).split())
    assert res.exit_code == code, res.output
    assert words in " ".join(res.output.split())


def _kernels():
    from outperform.stats import (cohen_kappa, fleiss_kappa, krippendorff_alpha,
                                  ppi_mean_estimates, rogan_gladen_estimates)

    return [
        ("alpha-text", lambda: krippendorff_alpha([["a", "b"], ["b", "b"]]),
         InvalidInputError, "numeric category codes"),
        ("alpha-one-rater", lambda: krippendorff_alpha([[1], [2]]), InvalidInputError,
         "at least 2 raters"),
        ("alpha-no-pairable-unit", lambda: krippendorff_alpha([[1, np.nan], [np.nan, 2]]),
         InvalidInputError, "a unit with at least 2 values"),
        ("kappa-bad-weights", lambda: cohen_kappa([1, 0], [1, 0], weights="cubic"),
         InvalidInputError, "weights must be one of"),
        ("fleiss-all-incomplete", lambda: fleiss_kappa([[1, np.nan], [0, np.nan]]),
         InvalidInputError, "at least 2 items rated by every rater"),
        ("ppi-infinite-judge", lambda: ppi_mean_estimates([1, 0, np.nan], [1, np.inf, 0]),
         InvalidInputError, "judge scores must be finite"),
        ("rogan-gladen-graded", lambda: rogan_gladen_estimates([1, 0.5], [1, 0]),
         InvalidInputError, "0/1 verdicts"),
        ("alpha-scores-as-categories",
         lambda: krippendorff_alpha(np.random.default_rng(0).random((9000, 2)) * 1e6 // 1,
                                    level="ordinal"),
         InvalidInputError, "too many categories for a categorical coefficient"),
        ("ppi-one-label", lambda: ppi_mean_estimates([1, np.nan, np.nan], [1, 0, 1]),
         InvalidInputError, "at least 2 items with a human label"),
    ]


@pytest.mark.parametrize("case", _kernels(), ids=lambda c: c[0])
def test_odd_kernel_input(case):
    _, call, error, words = case
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)


def test_rogan_gladen_without_specificity_is_said():
    from outperform.compare import compare_evals

    # a judge that calls every answer of A right: its specificity on A is 0, Se + Sp − 1 = 0,
    # so A has no Rogan–Gladen rate (NaN), and a warning says why
    rows = [("A", i, 1) for i in range(40)] + [("B", i, i % 2) for i in range(40)]
    table = pd.DataFrame(rows, columns=["model", "item", "score"])
    gold = pd.DataFrame([("A", i, int(i < 5)) for i in range(10)]
                        + [("B", i, i % 2) for i in range(10)],
                        columns=["model", "item", "label"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = compare_evals(table, gold=gold)
    assert any("no Rogan–Gladen rate" in w for w in res.warnings)
    rows = {r["model"]: r for r in res.judge["task"].models}
    assert np.isnan(rows["A"]["rg_mean"]) and rows["B"]["rg_mean"] == pytest.approx(0.5)


@pytest.mark.parametrize("fmt", ["json", "markdown", "html", "latex", "text"])
def test_gold_report_in_every_format(d, fmt):
    import json

    from outperform.report import validate_output

    res = runner.invoke(app, ["compare-evals", str(d / "evals.csv"), "--gold",
                              str(d / "gold.csv"), "--format", fmt])
    assert res.exit_code == 0, res.output
    if fmt == "json":
        data = validate_output(json.loads(res.stdout))
        assert set(data["judge"]["task"]["models"][0]) >= {"ppi_mean", "rg_mean",
                                                             "n_effective"}
    else:
        assert "PPI++" in res.stdout and "Gwet" in res.stdout
