"""Odd inputs of `outperform aggregate` met while making it fast (issue 31): each with its
exact outcome through the command line (exit code and a substring of the output)."""
import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()
_rng = np.random.default_rng(0)
RUNS = pd.DataFrame([{"task": t, "model": m, "run": f"seed-{r}", "score": 0.1 * i + _rng.random()}
                     for t in ("walker", "ant", "hopper") for i, m in enumerate("BAC")
                     for r in (2, 10, 1)])
FILES = {
    # rows in any order: the same numbers as the table in order
    "shuffled.csv": RUNS.sample(frac=1, random_state=1),
    # a model with a run missing on one task
    "ragged.csv": RUNS.drop(index=RUNS.index[(RUNS["model"] == "A") & (RUNS["task"] == "ant")
                                             & (RUNS["run"] == "seed-1")]),
    # run ids not shared between models: the unpaired design
    "unshared.csv": RUNS.assign(run=RUNS["model"] + RUNS["run"]),
}
CASES = [
    ("ragged runs", "ragged.csv", [], 1,
     "model 'A' has 2 to 3 runs per task; the stratified bootstrap needs the same number of "
     "runs of a model on every task (e.g. 'ant' has 2)"),
    ("unshared run ids", "unshared.csv", [], 0, "unpaired design (the models' run ids differ"),
    ("text run ids, shuffled rows", "shuffled.csv", [], 0, "paired design"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("aggfast")
    RUNS.to_csv(path / "runs.csv", index=False)
    for name, frame in FILES.items():
        frame.to_csv(path / name, index=False)
    return path


@pytest.mark.parametrize("name, file, extra, code, message", CASES, ids=[c[0] for c in CASES])
def test_odd_input(folder, name, file, extra, code, message):
    res = runner.invoke(app, ["aggregate", str(folder / file), "--n-resamples", "100", *extra])
    assert res.exit_code == code, res.output
    assert message in " ".join(res.output.split())
    assert "Traceback" not in res.output


def test_shuffled_rows_print_the_same_json(folder):
    """The same numbers; the models are listed in the order the table names them first (the
    pairs of the ranking do not depend on it)."""
    ordered, shuffled = (json.loads(runner.invoke(app, [
        "aggregate", str(folder / f), "--n-resamples", "100", "--format", "json", "--pairs",
        "neighbours"]).stdout) for f in ("runs.csv", "shuffled.csv"))
    assert ordered.pop("models") == ["B", "A", "C"]
    assert shuffled.pop("models") == list(pd.unique(FILES["shuffled.csv"]["model"]))
    assert ordered["tasks"] == ["ant", "hopper", "walker"]
    assert ordered == shuffled
