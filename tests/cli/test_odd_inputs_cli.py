"""Odd inputs of the shared options, old spellings and faults at the command line (issues 24
and 25): each row is an input and its exact outcome (exit code, and a message on stderr or
stdout), run through ``outperform.cli.app``."""
import errno
import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app
from outperform.data import load_demsar_table6

runner = CliRunner()


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    d = tmp_path_factory.mktemp("odd")
    rng = np.random.default_rng(0)
    load_demsar_table6().frame.to_csv(d / "t6.csv", index=False)
    y = rng.integers(0, 2, 150)
    pd.DataFrame({"label": y, "A": np.where(rng.random(150) < .85, y, 1 - y),
                  "B": np.where(rng.random(150) < .7, y, 1 - y)}).to_csv(d / "label.csv",
                                                                        index=False)
    pd.DataFrame({"y_true": y, "doc": np.arange(150) // 5,
                  "A": np.where(rng.random(150) < .85, y, 1 - y),
                  "B": np.where(rng.random(150) < .7, y, 1 - y)}).to_csv(d / "preds.csv",
                                                                        index=False)
    pd.DataFrame([{"model": m, "item": i, "passage": i // 10, "score": int(rng.random() < p)}
                  for m, p in (("A", .8), ("B", .7), ("C", .6)) for i in range(100)]
                 ).to_csv(d / "items.csv", index=False)
    pd.DataFrame([{"model_a": a, "model_b": b, "winner": rng.choice(["a", "b", "tie"])}
                  for _ in range(30) for a, b in (("x", "y"), ("y", "z"), ("x", "z"))]
                 ).to_csv(d / "battles.csv", index=False)
    pd.DataFrame([{"task": f"t{t}", "model": m, "run": s,
                   "score": mu + rng.normal(0, .05) + t / 10}
                  for t in range(4) for m, mu in (("A", .5), ("B", .6)) for s in range(4)]
                 ).to_csv(d / "runs.csv", index=False)
    (d / "folder").mkdir()
    return d


AGG = "aggregate {d}/runs.csv --n-resamples 100"
LB = "leaderboard {d}/items.csv --n-resamples 100"

CASES = [
    # (id, argv, exit code, substring of the output (stdout + stderr), "" for none)
    ("format-pdf", "compare {d}/t6.csv --format pdf", 2, "'pdf' is not one of"),
    ("both-directions-compare", "compare {d}/t6.csv --lower-is-better --higher-is-better", 2,
     "contradicts --lower-is-better"),
    ("both-directions-aggregate", AGG + " --lower-is-better --higher-is-better", 2,
     "contradicts --lower-is-better"),
    ("both-directions-evals", "compare-evals {d}/items.csv --lower-is-better "
     "--higher-is-better", 2, "contradicts --lower-is-better"),
    ("evals-old-log-format", "compare-evals {d}/items.csv --format csv", 0,
     "warning: --format csv (the format of the logs) is deprecated; use --log-format csv"),
    ("evals-unknown-log-format", "compare-evals {d}/items.csv --log-format xml", 1,
     "--log-format 'xml': choose one of auto, lm-eval, inspect, helm, hf-details, csv"),
    ("evals-two-log-formats", "compare-evals {d}/items.csv --format csv --log-format helm", 1,
     "--format csv and --log-format helm disagree"),
    ("evals-format-upper-case", "compare-evals {d}/items.csv --format JSON", 0, '"kind": "evals"'),
    ("evals-json-and-markdown", "compare-evals {d}/items.csv --json --format markdown", 1,
     "--json and --format markdown disagree"),
    ("evals-negative-top", "compare-evals {d}/items.csv --top -1", 1,
     "--top must be 0 (all models) or a positive number"),
    ("evals-cluster-by", "compare-evals {d}/items.csv --cluster-by passage", 0,
     "warning: --cluster-by is deprecated; use --cluster"),
    ("evals-cluster-twice-same", "compare-evals {d}/items.csv --cluster-by passage "
     "--cluster passage", 0, "--cluster-by is deprecated"),
    ("evals-cluster-twice-differ", "compare-evals {d}/items.csv --cluster-by passage "
     "--cluster item", 1, "--cluster 'item' and --cluster-by 'passage' disagree"),
    ("q1-group-cluster-differ", "compare-predictions {d}/preds.csv --group doc --cluster A", 1,
     "--cluster 'A' and --group 'doc' disagree"),
    ("q1-group-warns", "compare-predictions {d}/preds.csv --group doc", 0,
     "warning: --group is deprecated; use --cluster"),
    ("aggregate-level-and-alpha", AGG + " --alpha 0.1 --confidence-level 0.8", 1,
     "--alpha 0.1 and --confidence-level 0.8 disagree"),
    ("aggregate-json-and-latex", AGG + " --json --format latex", 1,
     "--json and --format latex disagree"),
    ("aggregate-json-warns", AGG + " --json", 0, "--json is deprecated; use --format json"),
    ("aggregate-out-folder", AGG + " --out {d}/folder", 1, "is a folder; give a file name"),
    ("report-pdf", "report {d}/t6.csv --format pdf --out {d}/r1", 1, "unknown format(s) pdf"),
    ("report-formats-empty", "report {d}/t6.csv --formats , --out {d}/r2", 1, "no format given"),
    ("report-markdown-accepted", "report {d}/t6.csv --formats markdown --out {d}/r3 "
     "--no-bayesian", 0, "report.md"),
    ("leaderboard-control-unknown", LB + " --control Z", 1, "--control 'Z' is not among"),
    ("battles-with-control", "leaderboard {d}/battles.csv --battles --control x", 1,
     "--control applies to rankings of scores, not to --battles"),
    ("leaderboard-out-folder", LB + " --out {d}/folder", 1, "is a folder; give a file name"),
    ("plan-out-folder", "plan sign --p-win 0.7 --out {d}/folder", 1, "is a folder"),
    ("simulate-out-gif", "simulate demsar-replicability --out {d}/f.gif", 1, ".png"),
    ("simulate-plot-gif", "simulate demsar-replicability --plot {d}/f.gif", 1, ".png"),
    ("simulate-plot-and-out-figure", "simulate demsar-replicability --plot {d}/a.png "
     "--out {d}/b.png", 1, "--plot and --out both name a figure"),
    ("compare-label-column-is-q1", "compare {d}/label.csv --y-true label --format json", 0,
     '"question": "Q1"'),
    ("compare-predictions-cluster", "compare {d}/preds.csv --cluster doc --format json", 0,
     '"question": "Q1"'),
    ("leaderboard-control-json", LB + " --control B --format json", 0, '"control": {'),
]


@pytest.mark.parametrize("case_id, argv, code, words", CASES, ids=[c[0] for c in CASES])
def test_odd_option(d, case_id, argv, code, words):
    res = runner.invoke(app, argv.format(d=d).split())
    assert res.exit_code == code, res.output
    assert words in " ".join(res.output.split())
    assert "Traceback" not in res.output


def test_control_rows_agree_with_the_letters(d):
    # Property: with --control, a model "differs" from the control exactly when the
    # leaderboard's letters say so (they share no letter).
    res = runner.invoke(app, (LB + " --control B --format json").format(d=d).split())
    data = json.loads(res.stdout)
    letters = {m["model"]: set(m["letters"]) for m in data["models"]}
    for row in data["control"]["comparisons"]:
        assert row["significant"] == (not letters[row["model"]] & letters["B"])


@pytest.mark.parametrize("raised, code, words", [
    (KeyboardInterrupt(), 130, "interrupted; nothing was written."),
    (OSError(errno.ENOSPC, "No space left on device", "/x/out.csv"), 1,
     "disk full while writing '/x/out.csv'"),
    (OSError(errno.EACCES, "Permission denied", "/x/out.csv"), 1, "permissions"),
])
def test_faults(d, monkeypatch, raised, code, words):
    import outperform.compare as oc

    def fail(*args, **kwargs):
        raise raised

    monkeypatch.setattr(oc, "leaderboard", fail)
    res = runner.invoke(app, LB.format(d=d).split())
    assert res.exit_code == code
    assert words in " ".join(res.output.split())
    assert "Traceback" not in res.output and "Aborted" not in res.output


def test_benchmark_on_a_full_disk_names_the_results_file(monkeypatch, tmp_path):
    pytest.importorskip("sklearn")
    import outperform.experiments as ex

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")   # no file name, as write()

    monkeypatch.setattr(ex, "run_experiment", full)
    out = tmp_path / "r.parquet"
    res = runner.invoke(app, ["benchmark", "--models", "nb,dummy", "--datasets", "iris",
                              "--cv", "1x3", "--out", str(out)])
    assert res.exit_code == 1
    line = " ".join(res.output.split())
    assert f"disk full while writing '{out}'" in line
    assert "Errno" not in line and "permissions" not in line and "Traceback" not in line
