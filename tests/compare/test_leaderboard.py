"""compare.leaderboard and `outperform leaderboard`: inputs, real tables, CLI."""
import json
import sys
import types
import warnings

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import InvalidInputError
from outperform.cli import app
from outperform.compare import leaderboard
from outperform.data import load_demsar_table6, load_uci54
from outperform.stats import compact_letters, pairwise_mcnemar

runner = CliRunner()


def test_demsar_table6_rank_sets_equal_csranks():
    # R, csranks (github.com/danielwilhelm/R-CS-ranks), X = the 14 x 4 AUC table
    # (load_demsar_table6(), columns C4.5, C4.5+m, C4.5+cf, C4.5+m+cf):
    #   csranks(colMeans(X), cov(X) / nrow(X), coverage=0.95, simul=TRUE, R=100000, seed=1)
    #   -> L 3 1 2 1, U 4 3 4 2; simul=FALSE gives the same sets.
    board = leaderboard(load_demsar_table6(), n_resamples=20000)
    rs = board.rank_sets
    assert rs.names == ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
    assert rs.simultaneous.tolist() == [[3, 4], [1, 3], [2, 4], [1, 2]]
    assert rs.marginal.tolist() == [[3, 4], [1, 3], [2, 4], [1, 2]]
    assert rs.unit == "task" and rs.n_items == 14 and board.source == "per-task scores"
    # Demšar (2006) Table 6 column means (AUC)
    np.testing.assert_allclose(rs.estimate, load_demsar_table6().score_matrix().values.mean(0))


def test_uci54_rank_sets_equal_csranks(shared_data):
    # X = the 53 x 5 table of mean accuracies over 10x10 CV (duplicate 'credit' line dropped),
    # columns nbc, aode, hnb, j48, j48gr:
    #   csranks(colMeans(X), cov(X) / nrow(X), coverage=0.95, simul=TRUE, R=100000, seed=1)
    #   -> L 3 1 1 2 1, U 5 4 4 5 4; simul=FALSE the same.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # the duplicated 'credit' line
        table = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
    board = leaderboard(table, n_resamples=20000)
    rs = board.rank_sets
    assert rs.names == ("nbc", "aode", "hnb", "j48", "j48gr")
    assert rs.simultaneous.tolist() == [[3, 5], [1, 4], [1, 4], [2, 5], [1, 4]]
    assert rs.marginal.tolist() == [[3, 5], [1, 4], [1, 4], [2, 5], [1, 4]]
    assert any("mean of 100 measurements" in n for n in board.notes)


def _items(seed=0, n=600, clustered=False):
    rng = np.random.default_rng(seed)
    acc = {"A": 0.9, "B": 0.9, "C": 0.8, "D": 0.7}
    rows = pd.DataFrame([{"model": m, "example": f"q{i}", "correct": int(rng.random() < p)}
                         for m, p in acc.items() for i in range(n)])
    if clustered:
        rows["cluster"] = rows["example"].str[1:].astype(int) // 3
    return rows


def test_per_item_binary_scores_use_mcnemar_letters():
    board = leaderboard(_items())
    assert board.pairwise.method.startswith("McNemar")
    correct = _items().pivot(index="example", columns="model", values="correct")
    ref = pairwise_mcnemar(correct.loc[[f"q{i}" for i in range(600)], list("ABCD")].T
                           .to_numpy(), names=list("ABCD"))
    np.testing.assert_array_equal(board.pairwise.pvalue_adjusted, ref.pvalue_adjusted)
    order = board.rank_sets.order
    assert board.letters == compact_letters(ref.reject[np.ix_(order, order)],
                                            [board.names[j] for j in order])
    assert board.metric == "correct" and board.rank_sets.higher_is_better


def test_clusters_column_is_used_and_noted():
    board = leaderboard(_items(clustered=True))
    rs = board.rank_sets
    assert rs.unit == "cluster" and rs.n_clusters == 200
    assert board.pairwise.method.startswith("paired t-test, cluster-robust")
    assert any("design effect" in n for n in board.notes)


def test_predictions_give_accuracy_and_match_per_item_scores():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 400)
    preds = pd.DataFrame({"y_true": y, **{m: np.where(rng.random(400) < p, y, 1 - y)
                                          for m, p in {"a": 0.9, "b": 0.8, "c": 0.85}.items()}})
    board = leaderboard(preds, n_resamples=300)
    assert board.source == "per-example predictions" and board.metric == "accuracy"
    np.testing.assert_allclose(board.rank_sets.estimate,
                               [(preds[m] == y).mean() for m in "abc"])
    long = pd.DataFrame([{"model": m, "example": i, "accuracy": int(preds[m][i] == y[i])}
                         for m in "abc" for i in range(400)])
    other = leaderboard(long, n_resamples=300)
    np.testing.assert_array_equal(board.rank_sets.simultaneous, other.rank_sets.simultaneous)


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.drop(index=5), "missing"),
    (lambda d: pd.concat([d, d.iloc[[0]]]), "several rows"),
    (lambda d: d.assign(cluster=np.arange(len(d))), "several clusters"),
])
def test_bad_per_item_tables_are_refused(mutate, message):
    with pytest.raises(InvalidInputError, match=message):
        leaderboard(mutate(_items(n=50)), n_resamples=100)


def test_predictions_with_a_log_loss_rank_by_the_loss():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 500)
    probs = pd.DataFrame({"y_true": y, "sharp": np.clip(y * 0.8 + 0.1 + rng.normal(0, 0.05, 500),
                                                        0.01, 0.99),
                          "vague": np.clip(y * 0.2 + 0.4 + rng.normal(0, 0.05, 500), 0.01, 0.99)})
    board = leaderboard(probs, loss="log", n_resamples=200)
    assert board.metric == "log loss" and not board.rank_sets.higher_is_better
    assert board.rank_sets.top_k(1) == ("sharp",)
    with pytest.raises(InvalidInputError, match="long table"):
        leaderboard(probs, loss="given")


def test_cluster_on_a_per_task_table_is_refused():
    with pytest.raises(InvalidInputError, match="tasks are resampled"):
        leaderboard(load_demsar_table6().frame, cluster="task")


def test_pairwise_mcnemar_takes_a_transposed_matrix():
    # regression: the bit packing needed C-contiguous rows (ValueError on x.T before)
    x = np.random.default_rng(0).random((300, 3)) < 0.8
    np.testing.assert_array_equal(pairwise_mcnemar(x.T).pvalue_adjusted,
                                  pairwise_mcnemar(x.T.copy()).pvalue_adjusted)


def test_cli_text_json_markdown(tmp_path):
    path = tmp_path / "items.csv"
    _items(clustered=True).to_csv(path, index=False)
    res = runner.invoke(app, ["leaderboard", str(path), "--n-resamples", "200"])
    assert res.exit_code == 0, res.output
    assert "simultaneous" in res.output and "cluster-robust" in res.output
    res = runner.invoke(app, ["leaderboard", str(path), "--n-resamples", "200", "--top-k", "3"])
    assert "may be among the best 3 (simultaneous 95%): " in res.output
    res = runner.invoke(app, ["leaderboard", str(path), "--format", "json", "--top", "2"])
    data = json.loads(res.output)
    assert [m["model"] for m in data["models"]][:2] in (["A", "B"], ["B", "A"])
    assert data["unit"] == "cluster"
    res = runner.invoke(app, ["leaderboard", str(path), "--format", "markdown", "--top", "2"])
    assert res.exit_code == 0 and res.output.count("\n| ") == 2   # 2 rows under the header


def test_cli_many_models_prints_the_top(tmp_path):
    rng = np.random.default_rng(2)
    scores = pd.DataFrame(rng.normal(np.linspace(0, 1, 60), 1.0, size=(100, 60)),
                          columns=[f"m{j:02d}" for j in range(60)])
    long = scores.rename_axis("example").reset_index().melt(
        id_vars="example", var_name="model", value_name="score")
    path = tmp_path / "many.csv"
    long.to_csv(path, index=False)
    res = runner.invoke(app, ["leaderboard", str(path), "--n-resamples", "200"])
    assert res.exit_code == 0, res.output
    assert "30 more models" in res.output
    assert "compact letters compare the 50 best-estimated models" in res.output


def test_cli_plot_writes_the_rank_sets_of_the_top_models(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import matplotlib.figure
    import matplotlib.image

    path = tmp_path / "items.csv"
    _items(clustered=True).to_csv(path, index=False)
    drawn = []
    savefig = matplotlib.figure.Figure.savefig
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", lambda fig, *a, **kw: (
        drawn.append([t.get_text() for t in fig.axes[0].get_yticklabels()]),
        savefig(fig, *a, **kw))[1])
    out = tmp_path / "figs" / "ranks.png"
    res = runner.invoke(app, ["leaderboard", str(path), "--n-resamples", "200", "--top", "2",
                              "--plot", str(out)])
    assert res.exit_code == 0, res.output
    assert "rank confidence sets written to" in res.output
    assert matplotlib.image.imread(out).shape[2] in (3, 4)   # a PNG that reads back
    board = json.loads(runner.invoke(app, ["leaderboard", str(path), "--n-resamples", "200",
                                           "--format", "json"]).output)
    assert drawn == [[m["model"] for m in board["models"]][:2]]   # --top 2: the best two


@pytest.mark.parametrize("name, words", [("ranks.jpg", "use a name ending in .png, .svg, .pdf"),
                                         ("folder.png", "is a folder; give a file name")])
def test_cli_plot_with_a_bad_name_exits_1_before_the_work(tmp_path, name, words):
    path = tmp_path / "items.csv"
    _items(n=50).to_csv(path, index=False)
    (tmp_path / "folder.png").mkdir()
    res = runner.invoke(app, ["leaderboard", str(path), "--plot", str(tmp_path / name)])
    output = " ".join(res.output.split())
    assert res.exit_code == 1 and words in output and "Traceback" not in output, output
    assert not (tmp_path / name).is_file()


def test_cli_bad_cluster_column_exits_1(tmp_path):
    path = tmp_path / "items.csv"
    _items(n=50).to_csv(path, index=False)
    res = runner.invoke(app, ["leaderboard", str(path), "--cluster", "passage"])
    assert res.exit_code == 1 and "no cluster column 'passage'" in res.output


def test_cli_battles_are_handed_to_the_battles_module(tmp_path, monkeypatch):
    calls = []
    fake = types.ModuleType("outperform.cli._battles")
    fake.leaderboard_battles = lambda path, **kw: calls.append((path, kw))
    monkeypatch.setitem(sys.modules, "outperform.cli._battles", fake)
    path = tmp_path / "battles.csv"
    path.write_text("model_a,model_b,winner\nx,y,a\n")
    res = runner.invoke(app, ["leaderboard", str(path), "--battles", "--anchor", "x",
                              "--seed", "3", "--n-resamples", "500"])
    assert res.exit_code == 0, res.output
    assert calls[0][0] == path
    assert calls[0][1] == dict(alpha=0.05, n_resamples=500, random_state=3, anchor="x",
                               fmt="text", plot=None, fragment=False)


def test_compare_on_benchmark_predictions_names_what_works(tmp_path):
    pytest.importorskip("sklearn")
    from outperform.experiments import predictions_path

    out = tmp_path / "iris.csv"
    res = runner.invoke(app, ["benchmark", "--models", "nb,dummy,tree", "--datasets", "iris",
                              "--cv", "1x3", "--predictions", "--out", str(out)])
    assert res.exit_code == 0, res.output
    path = predictions_path(out)
    res = runner.invoke(app, ["compare", str(path)])
    output = " ".join(res.output.split())
    assert res.exit_code == 1 and "Traceback" not in output, output
    assert "`outperform leaderboard FILE`" in output and "df.pivot(" in output, output
    assert "drop the 'task' column" not in output
    # Each advice works: the leaderboard reads the file, compare reads the pivot.
    assert runner.invoke(app, ["leaderboard", str(path), "--n-resamples", "100"]).exit_code == 0
    preds = pd.read_csv(path)
    wide = preds.pivot(index="example", columns="model", values="y_pred")
    wide.insert(0, "y_true", preds.groupby("example")["y_true"].first())
    wide.to_csv(tmp_path / "wide.csv")
    res = runner.invoke(app, ["compare", str(tmp_path / "wide.csv"), "--format", "json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["question"] == "Q1", res.output


def test_a_numeric_cluster_column_is_not_a_metric():
    from outperform.data import read_results

    df = pd.DataFrame({"task": ["t"] * 4, "model": ["a", "a", "b", "b"], "example": [0, 1, 0, 1],
                       "cluster": [7, 7, 7, 7], "score": [1.0, 0.0, 1.0, 1.0]})
    assert list(read_results(df).metrics) == ["score"]


def _two_tasks():
    rng = np.random.default_rng(8)
    acc = {"t1": {"A": 0.9, "B": 0.7, "C": 0.8}, "t2": {"A": 0.6, "B": 0.9, "C": 0.75}}
    return pd.DataFrame([{"task": t, "model": m, "example": i, "correct": int(rng.random() < p)}
                         for t, by in acc.items() for m, p in by.items() for i in range(400)])


def test_several_tasks_of_a_per_item_table_are_pooled_as_a_details_folder_is():
    # Property: without task=, the leaderboard is that of one table whose items are
    # "task/example" (the rule of a details folder), clusters kept within tasks; a note says so.
    df = _two_tasks()
    df["cluster"] = df["example"] // 10
    pooled = leaderboard(df, n_resamples=200)
    one = df.assign(example=df["task"] + "/" + df["example"].astype(str),
                    cluster=df["task"] + "/" + df["cluster"].astype(str)).drop(columns="task")
    pd.testing.assert_frame_equal(pooled.to_frame(), leaderboard(one, n_resamples=200).to_frame())
    assert pooled.rank_sets.n_clusters == 80
    assert any("items pooled over the 2 tasks (t1: 400, t2: 400)" in n for n in pooled.notes)


def test_several_tasks_of_a_predictions_table_are_pooled_too():
    # Property: its rows are the items, so pooling = the same table without the task column.
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"task": ["a"] * 200 + ["b"] * 300, "y_true": rng.integers(0, 2, 500),
                       "m1": rng.integers(0, 2, 500), "m2": rng.integers(0, 2, 500)})
    pooled = leaderboard(df, n_resamples=100)
    alone = leaderboard(df.drop(columns="task"), n_resamples=100)
    pd.testing.assert_frame_equal(pooled.to_frame(), alone.to_frame())
    assert any("items pooled over the 2 tasks (a: 200, b: 300)" in n for n in pooled.notes)


def test_task_selects_one_task_of_a_per_item_table(tmp_path):
    # Property: task="t2" is the leaderboard of the t2 rows alone (same seed, same numbers).
    df = _two_tasks()
    alone = leaderboard(df[df["task"] == "t2"].drop(columns="task").reset_index(drop=True))
    chosen = leaderboard(df, task="t2")
    pd.testing.assert_frame_equal(chosen.to_frame(), alone.to_frame())
    assert chosen.names[chosen.rank_sets.order[0]] == "B"      # B is best on t2 (0.9)
    with pytest.raises(InvalidInputError, match="'t1', 't2'"):
        leaderboard(df, task="t3")
    path = tmp_path / "items.csv"
    df.to_csv(path, index=False)
    out = runner.invoke(app, ["leaderboard", str(path), "--task", "t1", "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)["models"]
    assert [r["model"] for r in rows][0] == "A"                # A is best on t1 (0.9)
    bad = runner.invoke(app, ["leaderboard", str(path), "--task", "nope"])
    assert bad.exit_code == 1 and "Traceback" not in bad.output


def test_text_scores_share_their_decimals_and_line_up():
    # Half-widths from ~0.006 to ~0.02: every "mean ± half-width" has the decimals of two
    # significant digits of the median half-width, and ends in one column.
    rng = np.random.default_rng(3)
    accuracy = [0.98, 0.97, 0.95, 0.86, 0.73, 0.10]
    rows = [{"model": f"m{i}", "example": e, "correct": int(rng.random() < p)}
            for i, p in enumerate(accuracy) for e in range(1800)]
    board = leaderboard(pd.DataFrame(rows), n_resamples=200)
    lines = board.format().splitlines()[3:3 + len(accuracy)]
    low, high = board.rank_sets.score_interval()
    half = (high - low) / 2
    decimals = int(1 - np.floor(np.log10(np.median(half))))
    for line in lines:
        mean, _, width = line.split()[-3:]
        assert len(mean.split(".")[1]) == len(width.split(".")[1]) == decimals
    assert len({len(line) for line in lines}) == 1


@pytest.mark.parametrize("name", ["id", "item", "doc_id", "sample_id", "ID"])
def test_item_ids_named_as_evaluation_logs_name_them_are_the_examples(name):
    # The names read_eval_logs accepts for a long table; before, only 'example' was read
    # and a table with 'id' was refused as "rows share the same (task, model)".
    items = _items(seed=4, n=300)
    board = leaderboard(items.rename(columns={"example": name}), n_resamples=200)
    same = leaderboard(items, n_resamples=200)
    assert board.to_dict() == same.to_dict()
    assert board.rank_sets.n_items == 300


def test_an_array_is_ranked_as_its_long_table_is():
    # Property: the array path (no long table in between) gives the leaderboard of the long
    # table read_item_array writes of it; a NaN is refused naming the item and the model.
    from outperform.data._arrays import read_item_array

    rng = np.random.default_rng(11)
    x = (rng.random((300, 4)) < [0.8, 0.75, 0.6, 0.62]).astype(np.uint8)
    direct = leaderboard(x, n_resamples=200)
    via_table = leaderboard(read_item_array(x), n_resamples=200)
    pd.testing.assert_frame_equal(direct.to_frame(), via_table.to_frame())
    assert direct.notes == via_table.notes
    x = x.astype(float)
    x[7, 2] = np.nan
    with pytest.raises(InvalidInputError, match="item 7 of model 'model_2'"):
        leaderboard(x)
