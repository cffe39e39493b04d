"""A leaderboard on too few items, clusters or tasks says so, with the coverage measured in
simulation (benchmarks/study_rank_set_units.py; docs/tutorial-leaderboards.md, "How many
items are enough")."""
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from _paths import ROOT
from outperform.compare import leaderboard
from outperform.compare._few_units import COVERAGE, FEW_UNITS, WARN_BELOW, measured
from outperform.data import load_demsar_table6
from outperform.simulate import rank_set_coverage

DOCS = ROOT / "docs" / "tutorial-leaderboards.md"


def _items(n, models=("a", "b", "c"), cluster_size=None, seed=0):
    rng = np.random.default_rng(seed)
    rows = {"model": np.repeat(models, n), "example": np.tile(np.arange(n), len(models)),
            "correct": (rng.random(n * len(models)) < 0.7).astype(int)}
    if cluster_size:
        rows["cluster"] = np.tile(np.arange(n) // cluster_size, len(models))
    return pd.DataFrame(rows)


def _tasks(n, k=4, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(0.8 + 0.05 * rng.standard_normal((n, k)),
                        columns=[f"m{j}" for j in range(k)],
                        index=pd.Index([f"t{i}" for i in range(n)], name="task")).reset_index()


def _few(board):
    return [n for n in board.notes if "resampled: in simulation" in n]


def _count(note):
    return int(re.match(r"only (\d+) ", note).group(1))


@pytest.mark.parametrize("n", [FEW_UNITS - 1, 30])
def test_per_item_note_below_the_threshold(n):
    board = leaderboard(_items(n), n_resamples=200)
    [note] = _few(board)
    assert _count(note) == board.rank_sets.n_items == n
    models, units, coverage = measured("item", n, 3)
    assert f"of {models} tied models" in note and f"benchmarks of {units} items" in note
    assert f"{coverage:.0%}" in note and f"below {FEW_UNITS} items" in note
    assert note in board.format() and note in board.to_dict()["notes"]


def test_per_item_no_note_at_the_threshold():
    board = leaderboard(_items(FEW_UNITS), n_resamples=200)
    assert _few(board) == []


def test_clusters_are_the_units_counted():
    # 2 * 99 = 198 items, but 99 clusters are resampled: the note counts clusters.
    board = leaderboard(_items(2 * (FEW_UNITS - 1), cluster_size=2), n_resamples=200)
    [note] = _few(board)
    assert _count(note) == board.rank_sets.n_clusters == FEW_UNITS - 1
    assert "clusters (of 4 items)" in note and f"below {FEW_UNITS} clusters" in note
    board = leaderboard(_items(2 * FEW_UNITS, cluster_size=2), n_resamples=200)
    assert board.rank_sets.n_clusters == FEW_UNITS and _few(board) == []


def test_per_task_tables():
    board = leaderboard(load_demsar_table6(), n_resamples=200)
    [note] = _few(board)
    assert _count(note) == board.rank_sets.n_items == 14
    models, units, coverage = measured("task", 14, 4)
    assert (models, units) == (4, 14)
    assert f"{coverage:.0%} of benchmarks of 14 tasks" in note
    assert _few(leaderboard(_tasks(FEW_UNITS), n_resamples=200)) == []
    assert len(_few(leaderboard(_tasks(FEW_UNITS - 1), n_resamples=200))) == 1


def test_very_few_units_warn_in_the_python_api():
    with pytest.warns(UserWarning, match="only 5 items resampled") as caught:
        board = leaderboard(_items(5), n_resamples=200)
    assert str(caught[0].message) in board.notes
    assert caught[0].filename == __file__   # points at the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        board = leaderboard(_items(WARN_BELOW), n_resamples=200)
    assert len(_few(board)) == 1


def test_the_cell_quoted_is_the_nearest_below():
    cells = dict(COVERAGE[("task", 10)])
    assert measured("task", 2, 12) == (10, 5, cells[5])       # below the smallest: 5
    assert measured("task", 49, 8) == (10, 30, cells[30])
    assert measured("task", 50, 7)[:2] == (4, 50)
    for (unit, models), cells in COVERAGE.items():
        assert [u for u, _ in cells] == sorted(u for u, _ in cells)
        assert cells[-1][0] == FEW_UNITS     # the threshold is a simulated count


def test_docs_table_is_the_table_the_notes_quote():
    """The docs' table (the study's printed output) holds every value of COVERAGE."""
    text = DOCS.read_text()
    section = text[text.index("## How many items are enough"):]
    lines = section[section.index("| units |"):].split("\n\n")[0].splitlines()
    header = [h.strip() for h in lines[0].strip("|").split("|")]
    checked = 0
    for line in lines[2:]:
        row = [c.strip() for c in line.strip("|").split("|")]
        units = int(row[0])
        for name, value in zip(header[1:], row[1:]):
            unit, models = re.match(r"(item|cluster|task)s?.*?, (\d+) models", name).groups()
            cells = dict(COVERAGE[(unit, int(models))])
            if units in cells:
                assert float(value.split("±")[0]) == cells[units], (name, units)
                checked += 1
    assert checked == sum(len(c) for c in COVERAGE.values())


@pytest.mark.slow
def test_a_cell_of_the_study_reproduces():
    # benchmarks/study_rank_set_units.py's cell "tasks, 4 models, 14 units" (the size of
    # Demšar's Table 6), the call it makes; its value is COVERAGE[("task", 4)] at 14.
    res = rank_set_coverage([0.0] * 4, n_items=14, scores="normal", n_replications=2000,
                            n_resamples=1000, random_state=2026)
    assert round(res.coverage("simultaneous"), 3) == dict(COVERAGE[("task", 4)])[14]
