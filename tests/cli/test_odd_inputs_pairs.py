"""Odd inputs of ``--pairs`` and ``--matrix`` (issue 31, item 2): each input with its exact
outcome through the command line (exit code and a substring of the output)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()

_rng = np.random.default_rng(0)
Q3 = pd.DataFrame([{"task": f"t{t}", "model": m, "accuracy": 0.6 + 0.05 * i + _rng.normal(0, 0.03)}
                   for t in range(12) for i, m in enumerate("ABCD")])
Q2 = pd.DataFrame([{"task": "t", "model": m, "fold": f, "accuracy": 0.7 + 0.05 * i
                    + _rng.normal(0, 0.02)} for f in range(10) for i, m in enumerate("AB")])
ITEMS = pd.DataFrame([{"model": m, "item": i, "score": int(_rng.random() < 0.6 + 0.1 * j)}
                      for j, m in enumerate("ABC") for i in range(200)])
BATTLES = pd.DataFrame({"model_a": ["x", "y", "z"] * 4, "model_b": ["y", "z", "x"] * 4,
                        "winner": ["a", "b", "a"] * 4})
FILES = {"q3.csv": Q3, "q2.csv": Q2, "items.csv": ITEMS, "battles.csv": BATTLES}

# (id, arguments ({dir} is the folder of FILES), exit code, substring of the output)
CASES = [
    ("compare control without control", ["compare", "{dir}/q3.csv", "--pairs", "control"], 1,
     "pairs='control' (--pairs control) needs a control model"),
    ("compare unknown rule", ["compare", "{dir}/q3.csv", "--pairs", "best"], 1,
     "pairs='best': choose one of all, neighbours, control"),
    ("compare Q2 ignores pairs", ["compare", "{dir}/q2.csv", "--pairs", "all"], 0,
     "option pairs='all' does not apply to Q2 (algorithms on one task, resampling folds) and "
     "was ignored."),
    ("leaderboard control without control",
     ["leaderboard", "{dir}/items.csv", "--n-resamples", "100", "--pairs", "control"], 1,
     "needs a control model"),
    ("leaderboard unknown rule",
     ["leaderboard", "{dir}/items.csv", "--n-resamples", "100", "--pairs", "some"], 1,
     "choose one of all, neighbours, control"),
    ("leaderboard pairs with battles",
     ["leaderboard", "{dir}/battles.csv", "--battles", "--pairs", "all"], 1,
     "--pairs and --matrix show the paired tests of rankings of scores, not --battles"),
    ("leaderboard matrix with battles",
     ["leaderboard", "{dir}/battles.csv", "--battles", "--matrix", "{dir}/m.png"], 1,
     "not --battles"),
    ("leaderboard matrix not a figure",
     ["leaderboard", "{dir}/items.csv", "--matrix", "{dir}/m.txt"], 1, "--matrix"),
    ("report control without control",
     ["report", "{dir}/q3.csv", "--out", "{dir}/rep", "--format", "markdown", "--pairs",
      "control"], 1, "needs a control model"),
    ("report pairs on per-item scores",
     ["report", "{dir}/items.csv", "--out", "{dir}/rep2", "--pairs", "all"], 1,
     "--pairs applies to results tables and predictions"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("odd_pairs")
    for name, frame in FILES.items():
        frame.to_csv(d / name, index=False)
    return d


@pytest.mark.parametrize("case, args, code, expected", CASES, ids=[c[0] for c in CASES])
def test_cli(folder, case, args, code, expected):
    res = runner.invoke(app, [a.format(dir=folder) for a in args])
    assert res.exit_code == code, res.output
    assert expected in " ".join(res.output.split()), res.output
