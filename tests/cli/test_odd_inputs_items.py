"""Odd inputs of ``outperform items`` (issue 30 item 4): each row is an input and its exact
outcome (exit code and a message), through ``outperform.cli.app``; and the same inputs to
:func:`outperform.compare.item_diagnostics`, with the exception it raises."""
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.cli import app
from outperform.compare import item_diagnostics

runner = CliRunner()


def _rows(models, items, score):
    return [{"model": m, "item": i, "score": score(k, i)} for k, m in enumerate(models)
            for i in range(items)]


TABLES = {
    "one-model": pd.DataFrame(_rows(["A"], 30, lambda k, i: i % 2)),
    "one-item": pd.DataFrame(_rows(["A", "B", "C"], 1, lambda k, i: k % 2)),
    "all-correct": pd.DataFrame(_rows(["A", "B", "C"], 20, lambda k, i: 1)),
    # item 5 has an empty score for every model: no model answered it
    "unanswered-item": pd.DataFrame(_rows(["A", "B", "C"], 20, lambda k, i: np.nan if i == 5
                                          else float((i + k) % 3 == 0))),
    # model D has no scored item at all
    "model-without-items": pd.DataFrame(_rows(["A", "B", "C", "D"], 20, lambda k, i: np.nan
                                              if k == 3 else float((i + k) % 3 == 0))),
    # item 0 every model gets right: no finite joint ML difficulty
    "extreme-item": pd.DataFrame(_rows(["A", "B", "C"], 20, lambda k, i: 1.0 if i == 0
                                       else float((i + k) % 3 == 0))),
    "graded": pd.DataFrame(_rows(["A", "B", "C"], 20, lambda k, i: ((i + k) % 5) / 4)),
    "above-one": pd.DataFrame(_rows(["A", "B", "C"], 20, lambda k, i: (i + k) % 3)),
}

CASES = [
    # (id, table, extra options, exit code, substring of the output)
    ("one-model", "one-model", "", 1, "at least 2 models and 2 items"),
    ("one-item", "one-item", "", 1, "got 3 model(s) and 1 item(s)"),
    ("all-correct", "all-correct", "", 1, "every answered score is 1"),
    ("unanswered-item", "unanswered-item", "", 0, "1 item(s) no model answered left out"),
    ("model-without-items", "model-without-items", "", 0,
     "1 model(s) with no scored item left out: D."),
    ("graded-auto", "graded", "", 0, "no item response model was fitted"),
    ("graded-rasch", "graded", "--irt rasch", 1, "graded scores are refused, not rounded"),
    ("graded-2pl", "graded", "--irt 2pl", 1, "graded scores are refused, not rounded"),
    ("above-one", "above-one", "", 1, "scores must be in [0, 1]"),
    ("unknown-irt", "graded", "--irt 3pl", 1, "irt must be one of auto, rasch, 2pl, none"),
    ("top-k-zero", "graded", "--top-k 0", 1, "top_k must be a positive integer"),
    ("negative-top", "graded", "--top -1", 1, "--top must be 0"),
    ("rasch-exact-extremes", "extreme-item", "--prior-sd 0", 1,
     "item 0 has every answer right: its joint maximum likelihood estimate is infinite"),
    ("rasch-penalised-extremes", "extreme-item", "", 0, "1 every model gets right"),
    ("2pl", "unanswered-item", "--irt 2pl", 0, "2pl model by penalised joint maximum"),
    ("negative-prior", "graded", "--prior-sd -1", 1, "--prior-sd must be positive"),
]


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    d = tmp_path_factory.mktemp("items")
    for name, table in TABLES.items():
        table.to_csv(d / f"{name}.csv", index=False)
    return d


@pytest.mark.parametrize("case_id, table, extra, code, words", CASES, ids=[c[0] for c in CASES])
def test_odd_input(d, case_id, table, extra, code, words):
    argv = ["items", str(d / f"{table}.csv"), "--n-resamples", "100", *extra.split()]
    res = runner.invoke(app, argv)
    assert res.exit_code == code, res.output
    assert words in " ".join(res.output.split()), res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("table, kwargs, error, words", [
    ("one-model", {}, TooFewError, "at least 2 models"),
    ("one-item", {}, TooFewError, "1 item(s)"),
    ("all-correct", {}, DegenerateDataError, "every answered score is 1"),
    ("graded", {"irt": "rasch"}, InvalidInputError, "graded scores are refused"),
    ("above-one", {}, InvalidInputError, "scores must be in [0, 1]"),
])
def test_odd_input_in_python(table, kwargs, error, words):
    with pytest.raises(error) as info:
        item_diagnostics(TABLES[table], **kwargs)
    assert words in str(info.value)


def test_the_unanswered_are_left_out_of_the_matrix():
    res = item_diagnostics(TABLES["model-without-items"])
    assert res.models == ("A", "B", "C")
    res = item_diagnostics(TABLES["unanswered-item"])
    assert "5" not in set(res.examples) and len(res.examples) == 19
