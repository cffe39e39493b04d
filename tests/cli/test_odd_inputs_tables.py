"""Odd-input corpus of reading tables (issue 25 item 2, issue 24 item 2): column roles,
value ranges, option types, through the Python entry points and the command line.

Each case gives the exact outcome: an exception class and message, a warning, or the right
answer (checked against a peer: pandas, scikit-learn, or the same data in its plain form);
on the command line the exit code, a message and no traceback.
"""
from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import compare
from outperform._validation import InvalidInputError
from outperform.cli import app
from outperform.compare import compare_evals, compare_predictions
from outperform.data import read_battles, read_results

runner = CliRunner()


def _long(models=("A", "B", "C"), n_tasks=8, folds=2, metric="score", scale=1.0, shift=0.0):
    rng = np.random.default_rng(0)
    return pd.DataFrame([{"task": f"t{t}", "model": m, "fold": f,
                          metric: scale * round(rng.uniform(0.5, 1) + 0.05 * j, 6) + shift}
                         for t in range(n_tasks) for j, m in enumerate(models)
                         for f in range(folds)])


def _wide(models=("A", "B", "C"), n_tasks=8):
    rng = np.random.default_rng(1)
    wide = pd.DataFrame(rng.uniform(0.5, 1, size=(n_tasks, len(models))), columns=list(models))
    wide.insert(0, "task", [f"t{i}" for i in range(n_tasks)])
    return wide


def _predictions(n=120, labels="y_true"):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, n)
    flip = lambda p: np.where(rng.random(n) < p, y, 1 - y)   # noqa: E731
    return pd.DataFrame({labels: y, "m1": flip(0.9), "m2": flip(0.75), "m3": flip(0.6)})


def _battles(names=("gpt", "llama"), n=100, p_first=0.8, by_name=True):
    """Battles of two models on random sides; the first wins a share p_first."""
    rng = np.random.default_rng(4)
    swap = rng.random(n) < 0.5
    a = np.where(swap, names[1], names[0])
    b = np.where(swap, names[0], names[1])
    first_wins = rng.random(n) < p_first
    winner_name = np.where(first_wins, names[0], names[1])
    winner = winner_name if by_name else np.where(winner_name == a, "a", "b")
    return pd.DataFrame({"model_a": a, "model_b": b, "winner": winner})


def _cv_table(metric):
    """A cross_validate-like long table: one task, 5 folds, 3 models."""
    rng = np.random.default_rng(5)
    mae = {"ridge": 2.0, "lasso": 2.5, "tree": 3.5}
    return pd.DataFrame([{"model": m, "fold": f, metric: -(v + rng.normal(0, 0.1)),
                          "fit_time": 0.01} for m, v in mae.items() for f in range(5)])


# --- Python entry points: errors -------------------------------------------------------------

def _list_column():
    df = _long()
    df["score"] = [[v, v] for v in df["score"]]
    return df


def _percent_text():
    df = _long()
    df["score"] = [f"{100 * v:.1f}%" for v in df["score"]]
    return df


def _column_multiindex_two_levels():
    wide = _wide().set_index("task")
    wide.columns = pd.MultiIndex.from_product([["acc"], ["A", "B", "C"]])
    return pd.concat([wide, wide.rename(columns={"acc": "f1"})], axis=1)


def _unnamed_row_multiindex():
    df = _long().set_index(["task", "model"])
    df.index.names = [None, None]
    return df


def _negative_accuracy():
    df = _long(metric="accuracy")
    df.loc[3, "accuracy"] = -0.2
    return df


RAISES = [
    # (id, call, message substring)
    ("higher_is_better 'no'", lambda: compare(_wide(), higher_is_better="no"),
     "higher_is_better must be True or False"),
    ("alpha as text", lambda: compare(_wide(), alpha="0.05"), "alpha must be a number"),
    ("alpha 1.5", lambda: compare(_wide(), alpha=1.5), "alpha must lie in (0, 1)"),
    ("alpha True", lambda: compare(_wide(), alpha=True), "alpha must be a number"),
    ("rho as text", lambda: compare(_long(), rho="0.1"), "rho must be a number"),
    ("rope as list", lambda: compare(_long(), rope=[0.1]), "rope must be a number"),
    ("bayesian 'yes'", lambda: compare(_wide(), bayesian="yes"),
     "bayesian must be True or False"),
    ("metric as number", lambda: compare(_wide(), metric=3), "metric must be a string"),
    ("aggregate as number", lambda: compare(_wide(), aggregate=1),
     "aggregate must be a string"),
    ("two varying header rows", lambda: compare(_column_multiindex_two_levels()),
     "header rows"),
    ("unnamed row MultiIndex", lambda: compare(_unnamed_row_multiindex()),
     "row MultiIndex"),
    ("list column", lambda: compare(_list_column()), "'score' holds lists"),
    ("percent strings, long", lambda: compare(_percent_text()),
     "'score' holds percentages written as text"),
    ("percent strings, metric named", lambda: read_results(_percent_text(), metric="score"),
     "It is a percentage written as text"),
    ("percent strings, wide", lambda: compare(_wide().assign(B=lambda d: [
        f"{100 * v:.1f}%" for v in d["B"]])), "the scores of model 'B' holds percentages"),
    ("battles as results", lambda: compare(_battles()), "this looks like battles"),
    ("models differing by spaces, wide", lambda: compare(_wide(("A", " A", "B"))),
     "differ only by spaces"),
    ("models differing by spaces, long", lambda: compare(_long(("A", "A ", "B"))),
     "differ only by spaces"),
    ("per-item names differing by spaces", lambda: compare_evals(pd.DataFrame({
        "model": np.repeat(["A", " A", "B"], 30), "item": np.tile(np.arange(30), 3),
        "score": np.tile([0, 1, 1], 30)})), "differ only by spaces"),
    ("winner names that are sides", lambda: read_battles(_battles(("A", "B"))),
     "column 'winner' is ambiguous"),
    ("winner names mixed with sides", lambda: read_battles(pd.DataFrame({
        "model_a": ["gpt", "gpt", "llama"], "model_b": ["llama", "claude", "claude"],
        "winner": ["gpt", "a", "claude"]})), "column 'winner' holds model names on some rows"),
    ("winner names a model not in the battle", lambda: read_battles(pd.DataFrame({
        "model_a": ["gpt", "gpt", "llama"], "model_b": ["llama", "claude", "claude"],
        "winner": ["gpt", "llama", "claude"]})), "column 'winner' holds model names"),
    ("prediction columns differing by spaces", lambda: compare_predictions(
        _predictions().rename(columns={"m2": "m1 "})), "differ only by spaces"),
    ("task among prediction columns", lambda: compare_predictions(
        _predictions().assign(task=["a", "b"] * 60)), "column 'task' names data sets"),
    ("y_true among losses", lambda: compare_predictions(
        _predictions().assign(m1=lambda d: d.m1.astype(float)), y_true=None, loss="given"),
     "column 'y_true' looks like true labels"),
    ("second label column among predictions", lambda: compare_predictions(
        _predictions().assign(label=lambda d: d.y_true)), "column 'label' looks like true labels"),
]


@pytest.mark.parametrize("call, message", [c[1:] for c in RAISES], ids=[c[0] for c in RAISES])
def test_python_refusals(call, message):
    with pytest.raises(InvalidInputError) as info:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    assert message in str(info.value)


# --- Python entry points: right answers -----------------------------------------------------

def _summary(report):
    return [(r["model"], r["average_rank"]) for r in report.summary]


def test_one_constant_header_row_is_dropped():
    wide = _wide().set_index("task")
    multi = wide.copy()
    multi.columns = pd.MultiIndex.from_product([["acc"], wide.columns])
    assert _summary(compare(multi)) == _summary(compare(wide))


def test_named_row_multiindex_becomes_columns():
    long = _long()
    indexed = long.set_index(["task", "model", "fold"])
    flat, multi = compare(long), compare(indexed)
    assert _summary(multi) == _summary(flat)
    assert multi.tests["iman_davenport"].statistic == flat.tests["iman_davenport"].statistic


@pytest.mark.parametrize("labels", ["label", "target", "y"])
def test_predictions_with_a_label_column_go_to_q1(labels):
    df = _predictions(labels=labels)
    report = compare(df)
    peer = compare_predictions(df, y_true=labels)   # what compare_predictions gives
    assert report.question == "Q1"
    assert report.models == peer.models
    assert report.summary == peer.summary and report.conclusions == peer.conclusions


def test_sklearn_neg_mae_with_prefix_ranks_the_smallest_error_first():
    df = _cv_table("test_neg_mean_absolute_error")
    report = compare(df, metric="test_neg_mean_absolute_error")
    # pandas: the smallest mean absolute error is the largest mean of the negated values
    truth = (-df.groupby("model")["test_neg_mean_absolute_error"].mean()).sort_values()
    assert [r["model"] for r in report.summary] == list(truth.index)
    assert not any(w.startswith("DIRECTION") for w in report.warnings)


def test_accuracy_in_percent_warns():
    report = compare(_long(metric="accuracy", scale=40, shift=-5))
    assert any(w.startswith("UNITS") and "percentages" in w for w in report.warnings)


def test_negative_accuracy_warns():
    report = compare(_negative_accuracy())
    assert any(w.startswith("UNITS") and "holds -0.2" in w for w in report.warnings)


def test_accuracy_above_100_is_named_in_the_table():
    table = read_results(_long(metric="accuracy", scale=200))
    assert len(table.warnings) == 1 and "names a proportion" in table.warnings[0]


def test_winner_names_are_read_as_sides():
    df = _battles()
    got = read_battles(df)
    want = read_battles(_battles(by_name=False))   # the same battles written as sides
    pd.testing.assert_frame_equal(got, want)
    # the first model wins 80%: its share of wins in the read table says so
    first_won = np.where(got.winner == "a", got.model_a, got.model_b) == "gpt"
    assert first_won.mean() == pytest.approx((df.winner == "gpt").mean(), abs=0)


def test_seed_column_in_aggregate_is_a_run(tmp_path):
    df = _long(folds=3).rename(columns={"fold": "seed"})
    path = tmp_path / "seeds.csv"
    df.to_csv(path, index=False)
    res = runner.invoke(app, ["aggregate", str(path), "--seed", "0", "--n-resamples", "200"])
    assert res.exit_code == 0, res.output
    assert "3 models x 8 tasks x 3 runs" in res.output and "Traceback" not in res.output


# --- the command line -----------------------------------------------------------------------

def _write(tmp_path, name, frame):
    path = tmp_path / name
    if isinstance(frame, pd.DataFrame):
        frame.to_csv(path, index=False)
    else:
        path.write_text(frame)
    return path


CLI = [
    # (id, command, table, extra options, exit code, message substring)
    ("compare battles", "compare", _battles(), [], 1, "looks like battles"),
    ("compare percent strings", "compare", _percent_text(), [], 1,
     "percentages written as text"),
    ("compare names with spaces", "compare", _long(("A", "A ", "B")), [], 1,
     "differ only by spaces"),
    ("compare negative accuracy", "compare", _negative_accuracy(), [], 0,
     "names a proportion"),
    ("compare accuracy in percent", "compare", _long(metric="accuracy", scale=40, shift=-5),
     [], 0, "percentages"),
    ("compare predictions with label", "compare", _predictions(labels="label"), [], 0,
     "McNemar"),
    ("compare sklearn neg_mae", "compare", _cv_table("test_neg_mean_absolute_error"),
     ["--metric", "test_neg_mean_absolute_error"], 0, "(higher is better)"),
    ("compare-predictions task column", "compare-predictions",
     _predictions().assign(task=["a", "b"] * 60), [], 1, "names data sets"),
    ("compare-predictions loss given with y_true", "compare-predictions",
     _predictions().assign(m1=lambda d: d.m1.astype(float)), ["--loss", "given"], 1,
     "looks like true labels"),
    ("leaderboard battles A/B by name", "leaderboard", _battles(("A", "B")), ["--battles"], 1,
     "column 'winner' is ambiguous"),
    ("leaderboard task among predictions", "leaderboard",
     _predictions().assign(task=["a", "b"] * 60), [], 0, "items pooled over the 2 tasks"),
    ("aggregate battles", "aggregate", _battles(), [], 1, "looks like battles"),
    ("compare-evals battles", "compare-evals", _battles(), [], 1, "looks like battles"),
    ("compare-predictions names with spaces", "compare-predictions",
     _predictions().rename(columns={"m2": " m1"}), [], 1, "names column 'm1' 2 times"),
    ("aggregate names with spaces", "aggregate",
     _long(("A", " A", "B")).rename(columns={"fold": "run"}), [], 1, "differ only by spaces"),
]


@pytest.mark.parametrize("command, table, extra, code, message", [c[1:] for c in CLI],
                         ids=[c[0] for c in CLI])
def test_cli(tmp_path, command, table, extra, code, message):
    path = _write(tmp_path, "table.csv", table)
    res = runner.invoke(app, [command, str(path), *extra])
    assert res.exit_code == code, res.output
    assert message in res.output
    assert "Traceback" not in res.output


def test_cli_sklearn_neg_mae_ranks_the_smallest_error_first(tmp_path):
    df = _cv_table("test_neg_mean_absolute_error")
    path = _write(tmp_path, "cv.csv", df)
    res = runner.invoke(app, ["compare", str(path), "--metric", "test_neg_mean_absolute_error",
                              "--format", "json"])
    assert res.exit_code == 0, res.output
    # pandas: the smallest mean absolute error is the largest mean of the negated values
    truth = (-df.groupby("model")["test_neg_mean_absolute_error"].mean()).sort_values()
    out = json.loads(res.output)
    assert [r["model"] for r in out["summary"]] == list(truth.index)
    assert out["higher_is_better"] is True


def test_aggregate_notes_accuracy_in_percent(tmp_path):
    df = _long(metric="accuracy", scale=40, shift=-5, folds=3).rename(columns={"fold": "run"})
    path = _write(tmp_path, "runs.csv", df)
    res = runner.invoke(app, ["aggregate", str(path), "--seed", "0", "--n-resamples", "200",
                              "--format", "json"])
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["notes"]
    assert any(n.startswith("UNITS") and "percentages" in n for n in notes)


def test_per_item_scores_with_names_differing_by_spaces(tmp_path):
    rng = np.random.default_rng(6)
    df = pd.DataFrame({"model": np.repeat(["A", "A ", "B"], 40),
                       "item": np.tile(np.arange(40), 3),
                       "score": rng.integers(0, 2, 120)})
    path = _write(tmp_path, "items.csv", df)
    res = runner.invoke(app, ["leaderboard", str(path), "--seed", "0"])
    assert res.exit_code == 1, res.output
    assert "differ only by spaces" in res.output and "Traceback" not in res.output
