"""Odd inputs of ``outperform table`` and ``outperform.report.results_table`` (issue 28 item 1):
each input -> its exact outcome (exit code and a message substring)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform._validation import InvalidInputError
from outperform.cli import app
from outperform.report import results_table

runner = CliRunner()


def _folds(tasks=4, models=("A", "B", "C"), folds=10, seed=1, metric="accuracy"):
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"task": f"t{t}", "model": m, "fold": f,
                          metric: 0.7 + 0.02 * j + rng.normal(0, 0.02)}
                         for t in range(tasks) for j, m in enumerate(models)
                         for f in range(folds)])


def _wide(rows=6, models=("A", "B", "C"), seed=2):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"task": [f"d{i}" for i in range(rows)],
                         **{m: rng.uniform(0.6, 0.9, rows).round(3) for m in models}})


def _nan_cells():
    frame = _wide(rows=8)
    frame.loc[2, "B"] = np.nan
    return frame


def _constant_pair():
    frame = _folds(tasks=2, models=("A", "B"))
    a = frame["model"] == "A"
    frame.loc[~a, "accuracy"] = frame.loc[a, "accuracy"].to_numpy() - 0.01   # B = A - 0.01
    return frame


CASES = {
    # input -> (frame, extra arguments, exit code, message substring)
    "single method": (_wide(models=("A",)), [], 1, "at least 2 are needed"),
    "single data set": (_folds(tasks=1), ["--format", "markdown"], 0,
                        "test over data sets not run: 1 data set"),
    "NaN cells": (_nan_cells(), ["--format", "markdown", "--metric", "auc"], 0,
                  "1 cell(s) without a result are left empty"),
    "control not among the methods": (_folds(), ["--control", "Z"], 1,
                                      "control 'Z' is not one of the methods"),
    "loss metric without direction": (_folds(metric="foo"), [], 1,
                                      "cannot tell whether a higher or a lower 'foo' is better"),
    "negative decimals": (_folds(), ["--decimals", "-1"], 1,
                          "decimals must be a whole number from 0 to 15, got -1"),
    "decimals and sd digits": (_folds(), ["--decimals", "2", "--sd-digits", "1"], 1,
                               "not both"),
    "sd digits of single values": (_wide(), ["--sd-digits", "2", "--metric", "auc"], 1,
                                   "every cell holds one value"),
    "t-test on one value per cell": (_wide(), ["--test", "corrected-t", "--metric", "auc"], 1,
                                     "one measurement per cell: a t-test needs"),
    "too few folds": (_folds(folds=3), ["--format", "latex"], 0,
                      "only 3 paired fold scores per model"),
    "zero variance pair": (_constant_pair(), ["--format", "markdown"], 0,
                           "B against A is not tested (all 10 fold differences equal"),
    "runs without folds or sizes": (_folds().rename(columns={"fold": "run"}), [], 1,
                                    "pass rho= (--rho), e.g. 0.1 for 10-fold CV. Or leave the "
                                    "marks out: test='none' (--test none)."),
    "siunitx with ranks": (_folds(), ["--siunitx", "--ranks"], 1, "give one of the two"),
    "unknown column": (_folds(), ["--columns", "A,Q"], 1, "columns ['Q'] are not methods"),
    "column twice": (_folds(), ["--columns", "A,B,A"], 1, "columns names ['A'] more than once"),
    "unknown test": (_folds(), ["--test", "mcnemar"], 1,
                     "test must be one of ('auto', 'corrected-t', 'none'), got 'mcnemar'"),
    "both directions": (_folds(), ["--higher-is-better", "--lower-is-better"], 2,
                        "contradicts --lower-is-better"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_odd_input(tmp_path, case):
    frame, extra, code, message = CASES[case]
    path = tmp_path / "results.csv"
    frame.to_csv(path, index=False)
    res = runner.invoke(app, ["table", str(path), *extra])
    assert res.exit_code == code, res.output
    assert message in " ".join(res.output.split()), res.output
    assert "Traceback" not in res.output


def test_python_refuses_an_unknown_format():
    with pytest.raises(InvalidInputError, match="unknown format 'pdf'"):
        results_table(_folds(), format="pdf")


def test_a_wide_table_without_a_metric_name_needs_a_direction():
    with pytest.raises(InvalidInputError, match="higher_is_better=True or False"):
        results_table(_wide())
    assert "**" in results_table(_wide(), higher_is_better=False, format="markdown")
