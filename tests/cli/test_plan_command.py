"""``outperform plan ...`` (issue 17): the numbers it prints, its plots and its refusals."""
from __future__ import annotations

import math

import pytest
from scipy import stats
from typer.testing import CliRunner

from _paths import ROOT
from outperform.cli import app

runner = CliRunner()


def test_mcnemar_prints_the_connor_test_set_size():
    result = runner.invoke(app, ["plan", "mcnemar", "--accuracy-a", "0.80", "--accuracy-b",
                                 "0.82", "--discordance", "0.15"])
    assert result.exit_code == 0, result.output
    # Connor (1987): n = (z_.975 sqrt(psi) + z_.8 sqrt(psi - delta^2))^2 / delta^2
    n = ((stats.norm.ppf(0.975) * math.sqrt(0.15) + stats.norm.ppf(0.8)
          * math.sqrt(0.15 - 0.02 ** 2)) / 0.02) ** 2
    assert f"n = {math.ceil(n)} test examples" in result.output


def test_bayes_mcnemar_prints_the_probability_of_each_decision():
    result = runner.invoke(app, ["plan", "bayes-mcnemar", "--n", "25", "--accuracy-a", "0.8",
                                 "--accuracy-b", "0.7", "--discordance", "0.3", "--rope",
                                 "0.05", "--threshold", "0.9"])
    assert result.exit_code == 0, result.output
    for name in ("A better", "B better", "practically equivalent", "undecided"):
        assert f"P({name}) = " in result.output


def test_corrected_t_prints_the_r_by_k_table_of_power():
    result = runner.invoke(app, ["plan", "corrected-t", "--effect", "0.5", "--runs", "1,10",
                                 "--folds", "5,10"])
    assert result.exit_code == 0, result.output
    rows = {int(line.split()[0]): [float(v) for v in line.split()[1:]]
            for line in result.output.splitlines() if line.split()[:1] in (["1"], ["10"])}
    for r in (1, 10):
        for col, k in enumerate((5, 10)):
            # Noncentral t, df = rk - 1, ncp = d / sqrt(rho + (1 - rho) / rk), rho = 1/k.
            j, rho = r * k, 1 / k
            ncp = 0.5 / math.sqrt(rho + (1 - rho) / j)
            crit = stats.t.isf(0.025, j - 1)
            power = stats.nct.sf(crit, j - 1, ncp) + stats.nct.cdf(-crit, j - 1, ncp)
            assert rows[r][col] == pytest.approx(power, abs=5e-4)


@pytest.mark.parametrize("args", [
    ["mcnemar", "--accuracy-a", "0.82", "--accuracy-b", "0.80", "--discordance", "0.15"],
    ["paired-t", "--effect", "0.4"],
    ["sign", "--p-win", "0.7"],
    ["corrected-t", "--effect", "0.8"],
    ["auc", "--auc-a", "0.85", "--auc-b", "0.75"],
])
def test_plot_writes_power_curves(tmp_path, args):
    path = tmp_path / "power.png"
    result = runner.invoke(app, ["plan", *args, "--plot", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, match", [
    (["paired-t", "--effect", "0.3", "--power", "0.03"], "must exceed alpha"),
    (["paired-t", "--effect", "0"], "no difference"),
    (["paired-t", "--effect", "0.3", "--icc", "1.5"], "icc must lie in [0, 1]"),
    (["mcnemar", "--accuracy-a", "0.82", "--accuracy-b", "0.80", "--discordance", "0.01"],
     "raise the discordance to at least 0.02"),
    (["corrected-t", "--effect", "0.5", "--runs", "a,b"], "whole numbers"),
    (["paired-t", "--effect", "0.3", "--plot", "power.txt"], "cannot tell the format"),
    (["auc", "--auc-a", "0.85", "--auc-b", "0.75", "--correlation", "1"],
     "correlation must lie in [0, 1)"),
    (["bayes-mcnemar", "--n", "100", "--accuracy-a", "0.8", "--accuracy-b", "0.7",
      "--discordance", "0.05"], "raise the discordance to at least 0.1"),
])
def test_nonsense_inputs_exit_1_with_what_to_change(args, match):
    result = runner.invoke(app, ["plan", *args])
    assert result.exit_code == 1, result.output
    assert match in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_planning_page_code_prints_what_the_page_says(tmp_path, monkeypatch):
    """docs/planning.md: each python block runs and prints the text block that follows it."""
    import contextlib
    import io
    import re

    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "docs" / "planning.md").read_text("utf-8")
    fences = list(re.finditer(r"^```(\w+)\n(.*?)^```[ \t]*$", text, re.S | re.M))
    namespace: dict = {}
    ran = 0
    for i, m in enumerate(fences):
        if m.group(1) != "python":
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(m.group(2), namespace)
        ran += 1
        nxt = fences[i + 1] if i + 1 < len(fences) else None
        if nxt is not None and nxt.group(1) == "text" and not text[m.end():nxt.start()].strip():
            got = [line.rstrip() for line in printed.getvalue().strip("\n").splitlines()]
            want = [line.rstrip() for line in nxt.group(2).strip("\n").splitlines()]
            assert got == want
    assert ran >= 5 and (tmp_path / "power.png").exists()
