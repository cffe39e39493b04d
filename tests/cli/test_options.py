"""Options of `outperform compare`, `report` and `compare-predictions` that must reach the
library (issue 12's loose ends): --higher-is-better, --encoding, progress of the MCMC,
--prior 0, --threshold <= 0.5, --posthoc none with --plot, and --control for Q1."""
import importlib
import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app
from outperform.data import load_demsar_table6

runner = CliRunner()


def run(*args):
    res = runner.invoke(app, [str(a) for a in args])
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
    return res


def _flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.fixture
def widgets(tmp_path):
    """Demšar's Table 6 with a metric name outperform does not know (its direction unknown)."""
    path = tmp_path / "widgets.csv"
    load_demsar_table6().frame.rename(columns={"auc": "widgetness"}).to_csv(path, index=False)
    return path


@pytest.fixture
def t6(tmp_path):
    path = tmp_path / "t6.csv"
    load_demsar_table6().frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("command", ["compare", pytest.param("report", marks=pytest.mark.slow)])
def test_higher_is_better_confirms_the_direction_and_silences_the_warning(
        widgets, tmp_path, command):
    extra = ["--out", tmp_path / "r", "--formats", "json", "--no-bayesian"] * (command == "report")
    assumed = run(command, widgets, *extra)
    assert assumed.exit_code == 0, assumed.output
    assert "DIRECTION" in assumed.output and "--higher-is-better" in _flat(assumed.output)
    confirmed = run(command, widgets, "--higher-is-better", *extra)
    assert confirmed.exit_code == 0, confirmed.output
    assert "DIRECTION" not in confirmed.output


def test_higher_is_better_gives_the_ranking_of_the_assumed_direction(widgets):
    def ranking(*flags):
        res = run("compare", widgets, "--format", "json", *flags)
        return [row["model"] for row in json.loads(res.stdout)["summary"]]

    assert ranking("--higher-is-better") == ranking() == ranking("--lower-is-better")[::-1]


@pytest.mark.parametrize("command", ["compare", "report"])
def test_both_directions_at_once_are_a_usage_error(widgets, command):
    res = run(command, widgets, "--lower-is-better", "--higher-is-better")
    assert res.exit_code == 2
    assert "--lower-is-better" in res.output and "--higher-is-better" in res.output


def test_encoding_option_reads_a_windows_1252_file(tmp_path):
    path = tmp_path / "cp1252.csv"
    rows = [f"jeu_{t}_é,{m},{s}" for t in range(6) for m, s in (("A", .8 + t / 100), ("B", .7))]
    path.write_bytes(("task,model,accuracy\n" + "\n".join(rows) + "\n").encode("cp1252"))
    refused = run("compare", path)
    assert refused.exit_code == 1
    message = _flat(refused.output)
    assert "--encoding cp1252" in message and "read_results" not in message
    res = run("compare", path, "--encoding", "cp1252")
    assert res.exit_code == 0, res.output
    out = tmp_path / "report"
    res = run("report", path, "--encoding", "cp1252", "--out", out, "--formats", "json")
    assert res.exit_code == 0, res.output


def test_encoding_option_of_compare_predictions(tmp_path):
    path = tmp_path / "preds.csv"
    y = np.tile([0, 1], 30)
    frame = pd.DataFrame({"y_true": y, "modèle": y, "B": np.roll(y, 1)})
    path.write_bytes(frame.to_csv(index=False).encode("cp1252"))
    res = run("compare-predictions", path, "--encoding", "cp1252", "--format", "json")
    assert res.exit_code == 0, res.output
    assert "modèle" in json.loads(res.stdout)["models"]


def test_hierarchical_compare_shows_its_progress(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    path = tmp_path / "folds.csv"
    pd.DataFrame([{"task": f"t{t}", "model": m, "run": 0, "fold": f,
                   "accuracy": mu + rng.normal(0, .02)}
                  for t in range(6) for m, mu in (("A", .8), ("B", .78))
                  for f in range(5)]).to_csv(path, index=False)
    seen = {}

    def fake(*args, **kwargs):   # the MCMC takes 15 s; what matters is what it is asked
        seen.update(kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("outperform.bayes"),
                        "hierarchical_correlated_ttest", fake)
    runner.invoke(app, ["compare", str(path), "--hierarchical"])
    assert seen["progress"] is True


def test_prior_zero_is_refused_with_the_option_named(t6):
    res = run("compare", t6, "--bayesian", "--prior", "0")
    assert res.exit_code == 1
    assert "--prior" in res.output and "> 0" in res.output


def test_threshold_below_one_half_is_refused(t6):
    res = run("compare", t6, "--bayesian", "--threshold", "0.3")
    assert res.exit_code == 1
    assert "threshold" in res.output and "0.5" in res.output


def test_plot_with_posthoc_none_gives_the_real_reason(t6, tmp_path):
    res = run("compare", t6, "--posthoc", "none", "--plot", tmp_path / "cd.png")
    assert res.exit_code == 0, res.output
    text = _flat(res.stderr)
    assert "no critical-difference diagram" in text and "--posthoc none" in text
    assert "three or more" not in text and "two models" not in text
    assert not (tmp_path / "cd.png").exists()


def test_plot_of_two_models_says_two_models(tmp_path):
    path = tmp_path / "two.csv"
    load_demsar_table6().frame.query("model in ['C4.5', 'C4.5+m']").to_csv(path, index=False)
    res = run("compare", path, "--plot", tmp_path / "cd.png")
    assert res.exit_code == 0, res.output
    assert "three or more models" in _flat(res.stderr)


def test_compare_predictions_control_reaches_the_library_without_deprecation(tmp_path):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    path = tmp_path / "preds.csv"
    pd.DataFrame({"y_true": y, **{f"m{i}": np.where(rng.uniform(size=300) < 0.6 + 0.1 * i,
                                                     y, 1 - y) for i in range(3)}}
                 ).to_csv(path, index=False)
    res = run("compare-predictions", path, "--control", "m0", "--format", "json")
    assert res.exit_code == 0, res.output
    assert "deprecated" not in res.output
    assert json.loads(res.stdout)["posthoc"]["mcnemar_holm"]["control"] == "m0"


def test_messages_name_commands_not_library_functions(tmp_path):
    # Per-example values in the long layout but no true labels (Q1 without y_true).
    path = tmp_path / "examples.csv"
    pd.DataFrame([{"model": m, "example": i, "loss": (i + j) % 2}
                  for j, m in enumerate("AB") for i in range(20)]).to_csv(path, index=False)
    res = run("compare", path)
    assert res.exit_code == 1
    text = _flat(res.output)
    assert "--loss given" in text and "compare_predictions(" not in text


def test_posthoc_help_lists_every_accepted_value():
    import re

    from outperform.compare._q3 import POSTHOC
    res = run("compare", "--help")
    text = _flat(res.output)
    start = text.index("--posthoc")
    helptext = text[start:text.index("--rope", start)]
    words = set(re.findall(r"[a-z]+(?:-[a-z]+)?", helptext))
    missing = [v for v in POSTHOC if v not in words]
    assert not missing, (missing, helptext)


def test_compare_predictions_noninferiority_margin(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 500)
    path = tmp_path / "preds.csv"
    pd.DataFrame({"y_true": y, "new": np.where(rng.uniform(size=500) < 0.86, y, 1 - y),
                  "ref": np.where(rng.uniform(size=500) < 0.87, y, 1 - y)}
                 ).to_csv(path, index=False)
    res = run("compare-predictions", path, "--control", "ref", "--noninferiority-margin",
              "0.05", "--format", "json")
    assert res.exit_code == 0, res.output
    test = json.loads(res.stdout)["tests"]["noninferiority"]
    assert test["method"] == "Tango's score test of non-inferiority"
    assert test["details"]["margin"] == 0.05
    res = run("compare-predictions", path, "--noninferiority-margin", "0.05", "--loss", "log")
    assert res.exit_code == 1 and "zero-one" in res.output
