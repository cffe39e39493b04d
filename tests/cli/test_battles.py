"""The battles path of `outperform leaderboard --battles`: the table a user sees.

The leaderboard command itself lives in another module; here :func:`leaderboard_battles` is
called directly and through a tiny typer application with the package's error handler.
"""
import json
from pathlib import Path
from typing import Optional

import numpy as np
import pandas as pd
import pytest
import typer
from rich.console import Console
from typer.testing import CliRunner

from outperform.cli._battles import leaderboard_battles
from outperform.cli._errors import Group
from outperform.compare import bradley_terry

app = typer.Typer(cls=Group, add_completion=False)


@app.callback()
def _main() -> None:
    """Test application."""


@app.command("leaderboard")
def _leaderboard(file: Path, alpha: float = 0.05, n_resamples: int = 0,
                 seed: Optional[int] = None, anchor: Optional[str] = None,
                 fmt: str = typer.Option("text", "--format"),
                 plot: Optional[Path] = None) -> None:
    leaderboard_battles(file, alpha=alpha, n_resamples=n_resamples, random_state=seed,
                        anchor=anchor, fmt=fmt, plot=plot)


runner = CliRunner()


def _battles(tmp_path, winner=None):
    rng = np.random.default_rng(0)
    lam = {"gpt": 1.0, "llama": 0.0, "mistral": -0.5, "phi": -1.0}
    names = list(lam)
    a = rng.integers(0, 4, 600)
    b = (a + rng.integers(1, 4, 600)) % 4
    p = 1 / (1 + np.exp([lam[names[j]] - lam[names[i]] for i, j in zip(a, b)]))
    w = np.where(rng.random(600) < 0.15, "tie (bothbad)",
                 np.where(rng.random(600) < p, "model_a", "model_b"))
    df = pd.DataFrame({"model_a": np.array(names)[a], "model_b": np.array(names)[b],
                       "winner": w if winner is None else winner})
    path = tmp_path / "battles.csv"
    df.to_csv(path, index=False)
    return path


def test_direct_call_prints_ranked_table(tmp_path):
    path = _battles(tmp_path)
    console = Console(record=True, width=120)
    leaderboard_battles(path, alpha=0.1, n_resamples=0, random_state=None, anchor="llama",
                        fmt="text", console=console)
    text = console.export_text()
    expected = bradley_terry(path, anchor="llama", confidence_level=0.9)
    rows = [line for line in text.splitlines() if line.startswith("│")]
    assert "90% interval" in text
    first = rows[0].split("│")
    assert first[2].strip() == "gpt" and first[1].strip() == "1"
    assert float(first[3]) == pytest.approx(expected.ratings[0], abs=0.05)
    assert "llama at 1000" in text and "Davidson" in text
    assert "sandwich" in text


def test_json_and_markdown_through_typer(tmp_path):
    path = _battles(tmp_path)
    res = runner.invoke(app, ["leaderboard", str(path), "--format", "json",
                              "--n-resamples", "200", "--seed", "4"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    expected = bradley_terry(path, interval="bootstrap", n_resamples=200, random_state=4)
    top = got["models"][0]
    assert top["model"] == "gpt"
    assert top["low"] == pytest.approx(float(expected.rating_low[0]))
    assert "percentile bootstrap" in got["interval"]
    md = runner.invoke(app, ["leaderboard", str(path), "--format", "markdown"])
    assert md.exit_code == 0, md.output
    assert "| 1 | gpt |" in md.stdout


def test_bad_winner_is_one_line_exit_1(tmp_path):
    path = _battles(tmp_path, winner="draw")
    res = runner.invoke(app, ["leaderboard", str(path)])
    assert res.exit_code == 1
    assert "winner must be a, b or tie" in res.output and "Traceback" not in res.output


def test_plot_is_written(tmp_path):
    path = _battles(tmp_path)
    out = tmp_path / "fig" / "ratings.png"
    res = runner.invoke(app, ["leaderboard", str(path), "--plot", str(out)])
    assert res.exit_code == 0, res.output
    assert out.stat().st_size > 1000
    bad = runner.invoke(app, ["leaderboard", str(path), "--plot", str(tmp_path / "x.gif")])
    assert bad.exit_code == 1 and "cannot tell the format" in bad.output
