"""The leaderboard section of the reports: compare() on Q1 with k > 2 adds it, every format
shows it, and each number shown is the Leaderboard object's."""
from __future__ import annotations

import io
import json
import re

import numpy as np
import pandas as pd
import pytest
from rich.console import Console

from outperform import compare
from outperform.compare import leaderboard
from outperform.data import load_demsar_table6
from outperform.report import (render_html, render_json, render_latex, render_markdown,
                               render_text, validate_report, write_report)

# Close enough that the simultaneous, marginal and percentile sets all differ at n = 300.
MODELS = {"alpha": 0.90, "beta": 0.88, "gamma": 0.86, "delta_x": 0.84, "eps": 0.80,
          "zeta": 0.70}


def _predictions(seed=3, n=300, models=MODELS):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    df = pd.DataFrame({"y_true": y})
    for name, p in models.items():
        df[name] = np.where(rng.random(n) < p, y, 1 - y)
    return df


@pytest.fixture(scope="module")
def rep():
    return compare(_predictions())


def _expected_rows(board) -> list[list[str]]:
    """The table's rows rebuilt from the Leaderboard's own fields (to_dict), best first."""
    rows = []
    for m in board.to_dict()["models"]:
        rows.append([m["model"], str(m["rank"]),
                     *(f"[{m[k][0]}, {m[k][1]}]" for k in ("simultaneous", "marginal",
                                                           "percentile")),
                     str(m["tier"]), m["letters"], m["estimate"], (m["ci_high"] - m["ci_low"]) / 2])
    return rows


def _check_rows(rows: list[list[str]], board) -> None:
    expected = _expected_rows(board)
    assert len(rows) == len(expected) == len(board.names)
    for got, want in zip(rows, expected):
        assert got[:7] == want[:7]
        mean, half = (float(v) for v in got[7].split("±"))
        decimals = len(got[7].split("±")[0].strip().split(".")[1])
        assert mean == pytest.approx(want[7], abs=0.51 * 10 ** -decimals)
        assert half == pytest.approx(want[8], abs=0.51 * 10 ** -decimals)


def test_compare_q1_with_more_than_two_models_has_a_leaderboard(rep):
    board = rep.leaderboard
    rs = board.rank_sets   # the tables below can only be right by showing each kind of set
    assert (rs.simultaneous != rs.marginal).any() and (rs.marginal != rs.percentile).any()
    assert board is not None and set(board.names) == set(MODELS)
    assert board.metric == "accuracy" and board.rank_sets.n_resamples == 500
    # The same call by hand gives the same rank sets: compare() passes its settings through.
    alone = leaderboard(_predictions(), n_resamples=500, random_state=0)
    np.testing.assert_array_equal(alone.rank_sets.simultaneous, board.rank_sets.simultaneous)
    assert alone.letters == board.letters
    # Accuracies are 1 - the Q1 summary's error rates.
    errors = {r["model"]: r["mean_loss"] for r in rep.summary}
    for name, est in zip(board.names, board.rank_sets.estimate):
        assert est == pytest.approx(1 - errors[name])


def test_two_models_q2_and_q3_have_none():
    df = _predictions(models={"a": 0.9, "b": 0.8})
    assert compare(df).leaderboard is None
    assert compare(load_demsar_table6()).leaderboard is None
    assert validate_report(compare(df))["leaderboard"] is None


def test_json_section_follows_the_schema_and_equals_the_object(rep):
    data = validate_report(render_json(rep))
    assert data["leaderboard"]["models"] == json.loads(
        json.dumps(rep.leaderboard.to_dict()))["models"]
    assert [m["model"] for m in data["leaderboard"]["models"]] == [
        rep.leaderboard.names[j] for j in rep.leaderboard.rank_sets.order]


def test_markdown_table(rep):
    md = render_markdown(rep)
    assert "### Leaderboard: rank confidence sets and tiers" in md
    block = md[md.index("#### Leaderboard of 6 models"):].split("\n\n")[1]
    lines = block.splitlines()
    assert lines[0] == ("| model | rank | simultaneous | marginal | percentile | tier | letters "
                        "| accuracy ± CI |")
    rows = [[c.strip().replace("\\_", "_") for c in line.strip("|").split("|")]
            for line in lines[2:]]
    _check_rows(rows, rep.leaderboard)
    assert "Top-1 set (simultaneous 95%; the models whose rank set reaches 1): " \
           + ", ".join(rep.leaderboard.top_k(1)) + "." in md


def test_html_table_and_figure(rep):
    html = render_html(rep)
    table = re.search(r'<table id="table-leaderboard".*?</table>', html, re.S).group(0)
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", tr)
            for tr in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1])]
    _check_rows(rows, rep.leaderboard)
    assert re.search(r'<figure id="figure-ranks" data-kind="ranks"><svg', html)


def test_latex_table(rep):
    tex = render_latex(rep)
    body = tex[tex.index(r"\label{tab:outperform-leaderboard}"):]
    body = body[body.index(r"\midrule") + len(r"\midrule"):body.index(r"\bottomrule")]
    rows = [[c.strip().replace(r"\_", "_").replace(r"\ensuremath{\pm}", "±")
             for c in line.rstrip("\\ ").split("&")] for line in body.strip().splitlines()]
    _check_rows(rows, rep.leaderboard)


def test_text_table(rep):
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    render_text(rep, console=console)
    text = console.export_text()
    assert "Leaderboard: rank confidence sets and tiers" in text
    start = text.index("Leaderboard of 6 models")
    lines = [line for line in text[start:].splitlines() if line.startswith("│")]
    rows = [[c.strip() for c in line.strip("│").split("│")] for line in lines]
    _check_rows(rows[:6], rep.leaderboard)


def test_written_report_has_the_rank_set_figure(rep, tmp_path):
    paths = write_report(rep, tmp_path, formats=("md", "tex"))
    assert {"report-ranks.pdf", "report-ranks.svg"} <= set(paths)
    assert (tmp_path / "report-ranks.svg").stat().st_size > 0
    assert "![Rank confidence sets at 95%" in (tmp_path / "report.md").read_text()
    assert r"\includegraphics[width=\linewidth]{report-ranks.pdf}" in (
        tmp_path / "report.tex").read_text()


def test_groups_are_the_clusters_and_given_losses_are_ranked():
    df = _predictions(n=240)
    df["doc"] = np.repeat(np.arange(60), 4)
    board = compare(df, group="doc").leaderboard
    assert board.rank_sets.unit == "cluster" and board.rank_sets.n_clusters == 60
    losses = _predictions(n=200).drop(columns="y_true")
    rep = compare(losses, loss="given", question="Q1")
    board = rep.leaderboard
    assert board.metric == "loss" and not board.rank_sets.higher_is_better
    np.testing.assert_allclose(board.rank_sets.estimate,
                               losses[list(board.names)].mean().to_numpy())


def test_a_leaderboard_alone_shows_its_section_in_jupyter(rep):
    html = rep.leaderboard._repr_html_()
    table = re.search(r'<table id="table-leaderboard".*?</table>', html, re.S).group(0)
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", tr)
            for tr in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1])]
    _check_rows(rows, rep.leaderboard)
    assert 'data-kind="ranks"' in html and "Top-1 set" in html
