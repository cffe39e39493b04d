"""Every sentence that names a better model agrees with the data (issue 12, items 2 and 8).

The error counts, mean scores and average ranks the sentences are checked against are
computed here from the generated data with numpy, not taken from the code under test.
"""
import json
import re

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()

# Issue 12, item 2: five classifiers on 1000 examples; clf_E makes 250 errors, clf_A 84.
ERRORS = {"clf_E": 250, "clf_D": 200, "clf_C": 150, "clf_B": 120, "clf_A": 84}
BETTER = re.compile(r"(\S+) is (?:significantly|practically) better than (\S+?)[ .,;)]")


def _five_classifiers(n=1000, seed=1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    table = {"y_true": y}
    for name, errors in ERRORS.items():     # clf_E is the first model column, as in the issue
        pred = y.copy()
        wrong = rng.choice(n, errors, replace=False)
        pred[wrong] = 1 - pred[wrong]
        table[name] = pred
    return pd.DataFrame(table)


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_issue_scenario_names_clf_a_better_than_clf_e(tmp_path, fmt):
    path = tmp_path / "predictions.csv"
    df = _five_classifiers()
    df.to_csv(path, index=False)
    errors = (df.drop(columns="y_true").to_numpy() != df[["y_true"]].to_numpy()).sum(axis=0)
    assert dict(zip(df.columns[1:], errors.tolist())) == ERRORS
    res = runner.invoke(app, ["compare-predictions", str(path), "--format", fmt])
    assert res.exit_code == 0, res.output
    if fmt == "json":
        text = " ".join(json.loads(res.stdout)["conclusions"])
    else:
        text = " ".join(res.stdout.split())    # undo the terminal's line wrapping
    assert "clf_A is significantly better than clf_E" in text
    claims = BETTER.findall(text)
    assert claims, text
    for better, worse in claims:              # and every other claim follows the error counts
        assert ERRORS[better] < ERRORS[worse], (better, worse)
