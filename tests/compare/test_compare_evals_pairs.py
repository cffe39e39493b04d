"""compare_evals with many models reports the pairs of the one rule (compare/_pair_choice.py)
and counts the rest (issue 31, item 2): at 200 models all 19,900 pairs' reports per task took
more than 12 minutes (killed); the rule gives 199."""
import json
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests
from typer.testing import CliRunner

from outperform._validation import InvalidInputError
from outperform.cli import app
from outperform.compare import compare_evals

ACC = np.linspace(0.9, 0.5, 12)


def _table(n=300, seed=3):
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"model": f"m{j:02d}", "task": t, "item": i,
                          "score": float(rng.random() < ACC[j] - 0.05 * k)}
                         for k, t in enumerate(("qa", "math")) for j in range(len(ACC))
                         for i in range(n)])


def _holm_count(table, task, alpha=0.05):
    """Brute force: exact McNemar (scipy.stats.binomtest on the discordant items) of every
    pair, Holm-adjusted by statsmodels.stats.multitest.multipletests; how many reject."""
    wide = table[table.task == task].pivot(index="item", columns="model", values="score") == 1
    p = [stats.binomtest(int((wide[a] & ~wide[b]).sum()), int((wide[a] != wide[b]).sum()),
                         0.5).pvalue if (wide[a] != wide[b]).any() else 1.0
         for a, b in combinations(wide.columns, 2)]
    return int(multipletests(p, alpha=alpha, method="holm")[0].sum())


def test_neighbours_by_default_all_on_request_control_with_a_control():
    table = _table()
    res = compare_evals(table)
    got = [(r.models[0], r.models[1]) for r in res.per_task["qa"]]
    # the ranking by the mean of the task means is m00 > m01 > ... (accuracies 0.9 to 0.5)
    # up to ties of noise: every report is a pair of neighbours of that ranking
    mean = table.groupby(["task", "model"]).score.mean().groupby("model").mean()
    ranking = list(mean.sort_values(ascending=False, kind="stable").index)
    assert got == list(zip(ranking[:-1], ranking[1:]))
    assert len(compare_evals(table, pairs="all").per_task["qa"]) == 66
    with_control = compare_evals(table, control="m05").per_task["math"]
    assert len(with_control) == 11 and all(r.models[0] == "m05" for r in with_control)
    with pytest.raises(InvalidInputError, match="needs a control"):
        compare_evals(table, pairs="control")


def test_the_count_of_the_pairs_not_shown_equals_a_brute_force_count():
    table = _table()
    notes = " ".join(compare_evals(table).notes)
    for task in ("qa", "math"):
        expected = _holm_count(table, task)
        assert f"{task}: McNemar's test (exact binomial), all pairs, holm-adjusted (the " \
               f"leaderboard letters' tests): {expected} of all 66 pairs differ" in notes
    assert "11 pairs are shown (neighbours in the ranking" in notes
    assert "of all 66 pairs" not in " ".join(compare_evals(table, pairs="all").notes)


def test_cli_pairs_option(tmp_path):
    path = tmp_path / "items.csv"
    _table(n=100).to_csv(path, index=False)
    runner = CliRunner()
    shown = runner.invoke(app, ["compare-evals", str(path), "--format", "json"])
    every = runner.invoke(app, ["compare-evals", str(path), "--format", "json", "--pairs",
                                "all"])
    assert shown.exit_code == 0 and every.exit_code == 0, shown.output + every.output
    assert [len(json.loads(r.stdout)["per_task"]["qa"]) for r in (shown, every)] == [11, 66]
    bad = runner.invoke(app, ["compare-evals", str(path), "--pairs", "control"])
    assert bad.exit_code == 1 and "needs a control" in bad.output
    assert "Traceback" not in bad.output
