"""Odd inputs of ``outperform gate`` (issue 26): each row is an input and its exact outcome,
the exit code and a substring of the message, through ``outperform.cli.app``."""
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()


def _table(path, model, scores, task="qa", items=None, **columns):
    items = np.arange(len(scores)) if items is None else items
    pd.DataFrame({"model": model, "task": task, "item": items, "score": scores,
                  **columns}).to_csv(path, index=False)
    return path


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    d = tmp_path_factory.mktemp("odd_gate")
    rng = np.random.default_rng(0)
    y = (rng.random(200) < 0.8).astype(int)
    c = y.copy()
    c[:6] = 1 - c[:6]
    _table(d / "base.csv", "v1", y)
    _table(d / "cand.csv", "v2", c)
    _table(d / "other_items.csv", "v2", c, items=np.arange(1000, 1200))
    _table(d / "one_b.csv", "v1", [1])
    _table(d / "one_c.csv", "v2", [0])
    _table(d / "const_b.csv", "v1", np.full(50, 0.5))
    _table(d / "const_c.csv", "v2", np.full(50, 0.6))
    _table(d / "graded_b.csv", "v1", rng.random(60) * 5)
    _table(d / "graded_c.csv", "v2", rng.random(60) * 5)
    _table(d / "task_b.csv", "v2", c, task="other")
    pd.concat([pd.read_csv(d / "base.csv"), pd.read_csv(d / "cand.csv")]).to_csv(
        d / "two_models.csv", index=False)
    _table(d / "clustered_b.csv", "v1", y, cluster=np.arange(200) // 10)
    _table(d / "clustered_c.csv", "v2", c, cluster=np.arange(200) // 10)
    _table(d / "graded01_b.csv", "v1", rng.random(200))
    pd.DataFrame({"y_true": y, "a": y, "b": c}).to_csv(d / "preds2.csv", index=False)
    pd.DataFrame({"label": y, "a": y}).to_csv(d / "preds_label.csv", index=False)
    pd.DataFrame({"label": y, "b": c}).to_csv(d / "preds_label_c.csv", index=False)
    return d


CASES = [
    # (arguments, exit code, message substring)
    (["base.csv", "cand.csv", "--margin", "-0.02"], 1, "a positive number"),
    (["base.csv", "cand.csv", "--margin", "0"], 1, "a positive number"),
    (["base.csv", "cand.csv", "--margin", "8"], 1, "In percentage points? Give 0.08"),
    (["base.csv", "cand.csv", "--margin", "1"], 1, "more than the whole scale"),
    (["graded_b.csv", "graded_c.csv", "--margin", "10"], 0, "as wide as the whole range"),
    (["base.csv", "base.csv", "--margin", "0.02"], 0, "the same file"),
    (["base.csv", "other_items.csv"], 1, "items are missing for some models"),
    (["base.csv", "other_items.csv", "--intersect"], 1, "0 item(s) shared"),
    (["one_b.csv", "one_c.csv"], 1, "at least 2 are needed"),
    (["const_b.csv", "const_c.csv", "--margin", "0.05"], 0, "same difference"),
    (["base.csv", "task_b.csv"], 1, "was not run by"),
    (["base.csv", "task_b.csv", "--intersect"], 1, "no task is shared"),
    (["two_models.csv", "cand.csv"], 1, "holds 2 models"),
    (["base.csv"], 1, "give the CANDIDATE"),
    ([], 1, "give the BASELINE and CANDIDATE"),
    (["base.csv", "cand.csv", "--alpha", "0.6"], 1, "below 0.5"),
    (["base.csv", "cand.csv", "--task", "nope"], 1, "are not in the logs"),
    (["base.csv", "cand.csv", "--samples", "pass@k"], 1, "needs k (--k)"),
    (["base.csv", "cand.csv", "--k", "2"], 1, "for samples 'pass@k' or 'k-of-k'"),
    (["base.csv", "cand.csv", "--samples", "best"], 1, "samples must be one of"),
    (["graded01_b.csv", "cand.csv", "--samples", "pass@k", "--k", "1"], 1,
     "every score must be 0 or 1"),
    (["base.csv", "cand.csv", "--samples", "pass@k", "--k", "3"], 1, "fewer than k = 3"),
    (["clustered_b.csv", "clustered_c.csv", "--cluster", "cluster", "--aa"], 1,
     "without --cluster"),
    (["base.csv", "cand.csv", "--aa", "--n-resamples", "5"], 1, ">= 100"),
    (["--plan"], 1, "--plan needs --margin"),
    (["--plan", "--margin", "0.02"], 1, "give --discordance"),
    (["--plan", "--margin", "0.02", "--discordance", "0.1", "--sd", "0.3"], 1, "one of them"),
    (["--plan", "--margin", "0.02", "--sd", "0.3", "--repeats", "3"], 1, "--within-variance"),
    (["--plan", "--margin", "0.02", "--discordance", "1.5"], 1, "(0, 1]"),
    (["base.csv", "--plan", "--margin", "0.02", "--discordance", "0.1"], 1, "give no files"),
    (["--plan", "--margin", "0.02", "--discordance", "0.1", "--format", "junit"], 1,
     "--format junit is for a gate"),
    (["base.csv", "cand.csv", "--format", "pdf"], 2, "junit"),
    (["preds2.csv", "preds2.csv"], 1, "ONE model's predictions"),
    (["preds_label.csv", "preds_label_c.csv"], 1, "needs columns model"),
    (["preds_label.csv", "preds_label_c.csv", "--y-true", "label", "--margin", "0.1"], 0,
     "Gate: PASS"),
]


@pytest.mark.parametrize("args, code, message", CASES, ids=[" ".join(a) or "none"
                                                           for a, _, _ in CASES])
def test_odd_input(d, args, code, message, monkeypatch):
    monkeypatch.chdir(d)
    res = runner.invoke(app, ["gate", *args])
    assert res.exit_code == code, res.output
    assert message in " ".join(res.output.split()), res.output
    assert "Traceback" not in res.output


def test_a_changed_saved_baseline_is_refused(d, tmp_path):
    assert runner.invoke(app, ["gate", str(d / "base.csv"), "--save-baseline",
                               str(tmp_path / "b")]).exit_code == 0
    table = pd.read_parquet(tmp_path / "b" / "items.parquet")
    table.loc[3, "score"] = 1 - table.loc[3, "score"]
    table.to_parquet(tmp_path / "b" / "items.parquet", index=False)
    res = runner.invoke(app, ["gate", str(tmp_path / "b"), str(d / "cand.csv")])
    assert res.exit_code == 1 and "changed since the baseline was saved" in res.output
