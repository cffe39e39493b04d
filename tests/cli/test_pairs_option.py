"""``--pairs`` on every command that compares pairs (issue 31, item 2): the same shared option
(cli/_options.py) in each --help, and through the command line a 12-model Q3 table prints 11
neighbour rows by default, 66 with --pairs all and 11 with --control; leaderboard's --matrix
draws the comparison matrix."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()


def _q3(k=12, n=30, seed=1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    skill = np.linspace(0, 0.2, k)
    return pd.DataFrame([{"task": f"t{t}", "model": f"m{j:02d}",
                          "accuracy": 0.6 + skill[j] + rng.normal(0, 0.05)}
                         for t in range(n) for j in range(k)])


@pytest.fixture(scope="module")
def q3(tmp_path_factory):
    path = tmp_path_factory.mktemp("pairs") / "q3.csv"
    _q3().to_csv(path, index=False)
    return path


@pytest.mark.parametrize("command", ["compare", "report", "leaderboard", "aggregate"])
def test_pairs_is_in_every_help(command):
    text = " ".join(runner.invoke(app, [command, "--help"], terminal_width=200).output.split())
    assert "--pairs" in text and "neighbours" in text


def _table_rows(markdown: str, caption: str) -> int:
    block = markdown.split(caption, 1)[1].split("\n\n", 2)[1]
    return sum(line.startswith("| ") for line in block.splitlines()) - 1   # less the header


@pytest.mark.parametrize("extra, rows, caption", [
    ([], 11, "Post-hoc: Nemenyi"),
    (["--pairs", "all"], 66, "Post-hoc: Nemenyi"),
    (["--control", "m05"], 11, "Post-hoc: Rank z test (holm)"),
])
def test_compare_prints_the_chosen_rows(q3, extra, rows, caption):
    res = runner.invoke(app, ["compare", str(q3), "--format", "markdown", *extra])
    assert res.exit_code == 0, res.output
    assert _table_rows(res.output, caption) == rows


def test_compare_json_says_which_pairs(q3):
    res = runner.invoke(app, ["compare", str(q3), "--format", "json"])
    data = json.loads(res.output)
    assert data["details"]["pairs"]["shown"] == 11 and data["details"]["pairs"]["total"] == 66
    every = json.loads(runner.invoke(app, ["compare", str(q3), "--format", "json", "--pairs",
                                           "all"]).output)
    # the post-hoc matrices are the same whatever is shown
    assert every["posthoc"] == data["posthoc"]


@pytest.mark.slow
def test_report_writes_the_chosen_rows(q3, tmp_path):
    res = runner.invoke(app, ["report", str(q3), "--out", str(tmp_path / "r"), "--format",
                              "markdown", "--no-bayesian"])
    assert res.exit_code == 0, res.output
    markdown = next((tmp_path / "r").glob("*.md")).read_text(encoding="utf-8")
    assert _table_rows(markdown, "Post-hoc: Nemenyi") == 11
    res = runner.invoke(app, ["report", str(q3), "--out", str(tmp_path / "all"), "--format",
                              "markdown", "--no-bayesian", "--pairs", "all"])
    markdown = next((tmp_path / "all").glob("*.md")).read_text(encoding="utf-8")
    assert _table_rows(markdown, "Post-hoc: Nemenyi") == 66


def _items(tmp_path, k=12, n=300):
    rng = np.random.default_rng(3)
    p = np.linspace(0.55, 0.85, k)
    path = tmp_path / "items.csv"
    pd.DataFrame([{"model": f"m{j:02d}", "example": i, "correct": int(rng.random() < p[j])}
                  for j in range(k) for i in range(n)]).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("extra, shown", [([], 11), (["--pairs", "all"], 66),
                                          (["--control", "m00"], 11)])
def test_leaderboard_json_holds_the_chosen_pairs(tmp_path, extra, shown):
    res = runner.invoke(app, ["leaderboard", str(_items(tmp_path)), "--n-resamples", "100",
                              "--format", "json", *extra])
    assert res.exit_code == 0, res.output
    pairs = json.loads(res.output)["pairs"]
    assert pairs["shown"] == len(pairs["comparisons"]) == shown and pairs["total"] == 66


@pytest.mark.slow
def test_leaderboard_matrix_is_drawn(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.image

    out = tmp_path / "matrix.png"
    res = runner.invoke(app, ["leaderboard", str(_items(tmp_path)), "--n-resamples", "100",
                              "--matrix", str(out)])
    assert res.exit_code == 0, res.output
    assert "multiple comparison matrix written to" in res.output
    assert matplotlib.image.imread(out).shape[2] in (3, 4)
