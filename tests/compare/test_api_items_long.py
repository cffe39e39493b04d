"""A long table of per-item scores (model, item id, score[, task]) given to `outperform report`
/ `compare`: the evaluation-log analysis (compare-evals), or a refusal naming it, never the
run/fold advice of results tables."""
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from typer.testing import CliRunner

from outperform import compare
from outperform._validation import InvalidInputError
from outperform.cli import app
from outperform.compare import compare_evals
from outperform.data import read_eval_logs, read_results

runner = CliRunner()
# The table of the bug report: model a right on items 1 and 3, b on item 3 only.
BRIEF = "task,model,id,score\narc,a,1,1\narc,a,2,0\narc,a,3,1\narc,b,1,0\narc,b,2,0\narc,b,3,1\n"


def _flat(text: str) -> str:
    return " ".join(text.split())


def _brief_csv(tmp_path):
    path = tmp_path / "items_long.csv"
    path.write_text(BRIEF)
    return path


def _significant(n=200, seed=5):
    """One task without a task column: a right on ~80% of the items, b on ~55%."""
    rng = np.random.default_rng(seed)
    a, b = (rng.random(n) < 0.8).astype(int), (rng.random(n) < 0.55).astype(int)
    items = [f"q{i}" for i in range(n)]
    return pd.DataFrame({"model": np.repeat(["a", "b"], n), "item": items * 2,
                         "score": np.r_[a, b]}), a, b


def test_report_on_a_per_item_csv_is_the_compare_evals_analysis(tmp_path):
    path = _brief_csv(tmp_path)
    res = runner.invoke(app, ["report", str(path), "--out", str(tmp_path / "rep"),
                              "--formats", "json,md"])
    assert res.exit_code == 0, res.output
    assert "run'/'fold'" not in res.output and "rows share" not in res.output
    out = json.loads((tmp_path / "rep" / "arc.json").read_text())
    assert out["models"] == ["a", "b"]
    # Hand counts: a right and b wrong on item 1 (n10 = 1), the reverse on none (n01 = 0).
    mc = out["tests"]["mcnemar"]
    assert (mc["details"]["n10"], mc["details"]["n01"]) == (1, 0)
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
    # rows: a right / a wrong; columns: b right / b wrong -> [[1, 1], [0, 1]]
    assert mc["pvalue"] == pytest.approx(sm_mcnemar([[1, 1], [0, 1]], exact=True).pvalue)
    # Paired difference of the per-item scores d = a - b = (1, 0, 0): mean 1/3, SE sd/sqrt(3),
    # normal p-value.
    d = np.array([1.0, 0.0, 0.0])
    se = d.std(ddof=1) / np.sqrt(3)
    diff = out["tests"]["paired_difference"]
    assert diff["estimate"] == pytest.approx(1 / 3)
    assert diff["details"]["standard_error"] == pytest.approx(se)
    assert diff["pvalue"] == pytest.approx(2 * stats.norm.sf(d.mean() / se))
    means = {r["model"]: r["mean_score"] for r in out["summary"]}
    assert means == pytest.approx({"a": 2 / 3, "b": 1 / 3})
    # Not significant: no sentence names a better model, and none favours b over a.
    text = _flat((tmp_path / "rep" / "arc.md").read_text())
    assert "better than" not in text and "no significant difference between a and b" in text
    # The same analysis compare-evals gives (the routing, not the numbers, is under test).
    same = compare_evals(str(path)).per_task["arc"][0].to_dict()
    assert out["tests"]["mcnemar"] == json.loads(json.dumps(same["tests"]["mcnemar"]))


def test_report_on_a_per_item_parquet_without_task_names_the_better_model(tmp_path):
    df, a, b = _significant()
    path = tmp_path / "items.parquet"
    df.to_parquet(path, index=False)
    res = runner.invoke(app, ["report", str(path), "--out", str(tmp_path / "rep"),
                              "--formats", "json,txt"])
    assert res.exit_code == 0, res.output
    out = json.loads((tmp_path / "rep" / "task.json").read_text())
    n10, n01 = int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum())
    assert (out["tests"]["mcnemar"]["details"]["n10"],
            out["tests"]["mcnemar"]["details"]["n01"]) == (n10, n01)
    # statsmodels.stats.contingency_tables.mcnemar(table, exact=True): the exact binomial test
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
    table = [[int(((a == 1) & (b == 1)).sum()), n10], [n01, int(((a == 0) & (b == 0)).sum())]]
    p = sm_mcnemar(table, exact=True).pvalue
    assert p < 0.05 and out["tests"]["mcnemar"]["pvalue"] == pytest.approx(p)
    assert a.mean() > b.mean()
    for sentence in out["conclusions"] + res.stdout.splitlines():
        if "better than" in sentence:
            assert "a is" in sentence and "b is" not in sentence, sentence
    assert any("a is significantly better than b" in s for s in out["conclusions"])


def test_compare_refuses_a_per_item_table_and_names_compare_evals(tmp_path):
    path = _brief_csv(tmp_path)
    for data in (str(path), pd.read_csv(path), _significant()[0]):
        with pytest.raises(InvalidInputError, match="compare_evals") as info:
            compare(data)
        assert "'run'/'fold'" not in str(info.value)
    res = runner.invoke(app, ["compare", str(path)])
    assert res.exit_code == 1
    text = _flat(res.output)
    assert "outperform compare-evals FILE" in text and "'run'/'fold'" not in text
    # The evaluation-log reader does read it, as the message says.
    assert compare_evals(str(path)).per_task["arc"][0].models == ("a", "b")


def test_per_fold_results_with_item_ids_stay_a_results_table():
    # A run/fold column makes per-example ids a results table: compare() is not refused with
    # the per-item message (Q2 on one task: the folds are paired).
    rows = [{"model": m, "fold": f, "example": f, "score": s}
            for m, base in (("a", 0.8), ("b", 0.7)) for f, s in
            enumerate(base + np.array([0.01, -0.02, 0.03, 0.0, -0.01]))]
    with pytest.raises(InvalidInputError) as info:
        compare(pd.DataFrame(rows))
    assert "compare_evals" not in str(info.value)
    rep = compare(pd.DataFrame(rows).drop(columns="example"))
    assert rep.question == "Q2"


def test_read_results_counts_the_repeated_rows_and_points_to_compare_evals(tmp_path):
    df = pd.read_csv(_brief_csv(tmp_path))
    # pandas: rows whose (task, model) occurs more than once, and how many such pairs.
    rows = int(df.duplicated(["task", "model"], keep=False).sum())
    groups = df.groupby(["task", "model"]).size()
    with pytest.raises(InvalidInputError) as info:
        read_results(df)
    text = str(info.value)
    assert text.startswith(f"{rows} rows share")
    assert f"{int((groups > 1).sum())} combination(s)" in text and "on 3 rows" in text
    assert "compare_evals" in text and "'run'/'fold'" not in text
    # Plain duplicates (no item id to tell them apart) keep the run/fold advice.
    dup = pd.DataFrame({"task": "t", "model": ["a", "a", "b", "b"], "score": [1, 0, 1, 1]})
    with pytest.raises(InvalidInputError, match=r"^4 rows share .*'run'/'fold'") as info:
        read_results(dup)
    assert "compare_evals" not in str(info.value)
    # With folds, item ids do not make it a table compare_evals reads (it has no folds).
    folds = pd.DataFrame({"task": "t", "model": ["a", "a", "b", "b"], "fold": 0, "id": [1, 2, 1, 2],
                          "score": [1, 0, 1, 1]})
    with pytest.raises(InvalidInputError, match="^4 rows share") as info:
        read_results(folds)
    assert "compare_evals" not in str(info.value)


def test_the_long_table_needs_no_task_column(tmp_path):
    df, a, b = _significant(n=20)
    logs = read_eval_logs(df)
    assert logs.tasks == ("task",) and logs.models == ("a", "b")
    path = tmp_path / "items.csv"
    df.to_csv(path, index=False)
    res = runner.invoke(app, ["compare-evals", str(path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert list(out["per_task"]) == ["task"]


def test_report_reads_a_per_item_table_in_the_encoding_given(tmp_path):
    # A spreadsheet export in Windows-1252: --encoding reaches the per-item reader too.
    path = tmp_path / "items_cp1252.csv"
    path.write_bytes(BRIEF.replace("arc", "café").encode("cp1252"))
    res = runner.invoke(app, ["report", str(path), "--encoding", "cp1252",
                              "--out", str(tmp_path / "rep"), "--formats", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(next((tmp_path / "rep").glob("*.json")).read_text())
    assert (out["tests"]["mcnemar"]["details"]["n10"],
            out["tests"]["mcnemar"]["details"]["n01"]) == (1, 0)


def test_one_discordant_item_is_singular():
    # "a right and b wrong on 1 items" read wrong; the count is one item (a: 1,0,1; b: 0,0,1).
    from outperform.compare import compare_evals

    rows = [("a", 1, 1), ("a", 2, 0), ("a", 3, 1), ("b", 1, 0), ("b", 2, 0), ("b", 3, 1)]
    df = pd.DataFrame(rows, columns=["model", "id", "score"]).assign(task="arc")
    said = " ".join(compare_evals(df).conclusions)
    assert "a right and b wrong on 1 item, the reverse on 0" in said


def test_mcnemar_estimate_is_named_phi_in_the_report():
    # The "estimate [95% CI]" column holds A − B for the other tests; McNemar's is
    # φ = n01 / (n01 + n10) = 0 / 1 here, with scipy's Clopper–Pearson interval.
    from scipy.stats import binomtest

    from outperform.compare import compare_evals
    from outperform.report import render_markdown

    rows = [("a", 1, 1), ("a", 2, 0), ("a", 3, 1), ("b", 1, 0), ("b", 2, 0), ("b", 3, 1)]
    df = pd.DataFrame(rows, columns=["model", "id", "score"]).assign(task="arc")
    report = compare_evals(df).per_task["arc"][0]
    ci = binomtest(0, 1).proportion_ci(0.95, method="exact")
    assert f"φ = 0 [{ci.low:.3g}, {ci.high:.3g}]" in render_markdown(report)


@pytest.mark.slow
def test_report_keeps_task_names_apart_in_its_file_names(tmp_path):
    # "café" lost its é ("caf"), so "café" and "cafè" wrote the same files, one report
    # overwriting the other; "CAFÉ" collides with "café" on case-insensitive file systems.
    rows = [(t, m, i, s) for t, scores in (("café", (1, 0, 0, 1)), ("cafè", (1, 0, 1, 1)),
                                           ("CAFÉ", (0, 0, 0, 1)))
            for (m, i), s in zip((("a", 1), ("a", 2), ("b", 1), ("b", 2)), scores)]
    path = tmp_path / "uni.csv"
    pd.DataFrame(rows, columns=["task", "model", "id", "score"]).to_csv(path, index=False)
    res = runner.invoke(app, ["report", str(path), "--out", str(tmp_path / "r"),
                              "--formats", "json"])
    assert res.exit_code == 0, res.output
    written = sorted(p.stem for p in (tmp_path / "r").glob("*.json"))
    tasks = {json.loads((tmp_path / "r" / f"{s}.json").read_text())["details"]["task"]
             for s in written if not s.startswith("over-tasks")}
    assert tasks == {"café", "cafè", "CAFÉ"}
    assert {"café", "cafè", "CAFÉ-2"} <= set(written)


@pytest.mark.parametrize("flags, named", [(["--rope", "0.01"], "--rope applies"),
                                          (["--no-bayesian", "--loss", "log"],
                                           "--no-bayesian, --loss apply")])
def test_report_on_per_item_scores_refuses_options_it_cannot_apply(tmp_path, flags, named):
    res = runner.invoke(app, ["report", str(_brief_csv(tmp_path)), "--out", str(tmp_path / "r"),
                              *flags])
    assert res.exit_code == 1 and named in res.stderr and "Traceback" not in res.output
    assert not (tmp_path / "r").exists()
