"""The pairs a leaderboard prints (report/_leaderboard.py: leaderboard_pairs, by the one rule
of compare/_pair_choice.py) and the count of all pairs that differ (issue 31, item 2): the
count equals a brute-force count of exact McNemar tests (scipy.stats.binomtest) Holm-adjusted
by statsmodels over all pairs."""
from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from outperform.compare import leaderboard
from outperform.report import leaderboard_output, load_output_schema
from outperform.report._outputs import render_output


def _rows(text: str) -> int:
    """Rows of the text output's pairs table (each starts with a model's name)."""
    return sum(line.startswith("│ m") for line in text.splitlines())


def _items(k=12, n=400, seed=2) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    p = np.linspace(0.55, 0.85, k)
    return pd.DataFrame([{"model": f"m{j:02d}", "example": i, "correct": int(rng.random() < p[j])}
                         for j in range(k) for i in range(n)])


@pytest.fixture(scope="module")
def board():
    return leaderboard(_items(), n_resamples=200)


def _brute_force(frame: pd.DataFrame, alpha=0.05) -> tuple[int, dict]:
    """Exact McNemar of every pair: binomial test of n01 among the discordant examples
    (scipy.stats.binomtest), Holm by statsmodels.stats.multitest.multipletests."""
    wide = frame.pivot(index="example", columns="model", values="correct").astype(bool)
    pairs = list(combinations(wide.columns, 2))
    p = [stats.binomtest(int((~wide[a] & wide[b]).sum()), int((wide[a] != wide[b]).sum()),
                         0.5).pvalue for a, b in pairs]
    reject, adjusted = multipletests(p, alpha=alpha, method="holm")[:2]
    return int(reject.sum()), {frozenset(ab): q for ab, q in zip(pairs, adjusted)}


def test_twelve_models_eleven_neighbours_and_the_count_of_all(board):
    out = leaderboard_output(board)
    chosen = out.payload["pairs"]
    ranking = [board.names[j] for j in board.rank_sets.order]
    assert [(r["x"], r["y"]) for r in chosen["comparisons"]] == list(zip(ranking[:-1],
                                                                          ranking[1:]))
    count, adjusted = _brute_force(_items())
    assert (chosen["shown"], chosen["total"], chosen["differing"]) == (11, 66, count)
    for row in chosen["comparisons"]:       # each printed row is that pair's Holm p
        assert row["pvalue_adjusted"] == pytest.approx(adjusted[frozenset((row["x"], row["y"]))],
                                                       rel=1e-9)
    assert (f"{count} of all 66 pairs differ significantly; 11 pairs are shown (neighbours in "
            "the ranking") in out.text
    assert _rows(out.text) == 11


def test_every_pair_and_the_control(board):
    every = leaderboard_output(board, pairs="all").payload["pairs"]
    assert every["shown"] == every["total"] == 66 and len(every["comparisons"]) == 66
    against = leaderboard_output(board, control="m03")
    rows = against.payload["pairs"]["comparisons"]
    assert len(rows) == 11 and {r["y"] for r in rows} == {"m03"}
    assert against.payload["control"]["model"] == "m03"        # as before
    # the same pair, the same test, whether shown as a control row or a pair row
    by_model = {r["model"]: r for r in against.payload["control"]["comparisons"]}
    assert all(by_model[r["x"]]["pvalue_adjusted"] == r["pvalue_adjusted"] for r in rows)


def test_top_prints_the_pairs_among_the_models_shown(board):
    out = leaderboard_output(board, top=4)
    assert _rows(out.text) == 3                          # 3 neighbours among 4 models
    assert "3 pairs are shown (neighbours in the ranking, among the models shown" in out.text
    assert len(out.payload["pairs"]["comparisons"]) == 11      # JSON: every chosen pair


@pytest.mark.slow
def test_json_validates_and_says_which_pairs(board):
    import jsonschema

    payload = json.loads(render_output(leaderboard_output(board, pairs="all"), "json"))
    jsonschema.validate(payload, load_output_schema())
    assert payload["pairs"]["rule"] == "every pair"


def test_markdown_stays_one_table(board):
    markdown = render_output(leaderboard_output(board), "markdown")
    assert sum(line.startswith("|---") for line in markdown.splitlines()) == 1
    assert markdown.count("\n- m") == 11


def test_listing_every_pair_of_many_models_is_costed_first(board, monkeypatch):
    from outperform import PerformanceWarning
    import outperform.report._leaderboard as module

    monkeypatch.setattr(module, "NOTICE_SECONDS", 0.0)    # as if the 66 pairs were 10^6
    with pytest.warns(PerformanceWarning, match="66 pairs of 12 models listed .every pair.: "
                                                "estimated"):
        leaderboard_output(board, pairs="all")
