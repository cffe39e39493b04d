"""Data layer: reading long/wide tables, validation errors, aggregation, published tables."""
import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError, TooFewError
from outperform.data import (load_demsar_table2, load_demsar_table6, load_demsar_table6_ranks,
                             read_results)


def _long(n_tasks=3, models=("A", "B"), folds=2):
    rng = np.random.default_rng(0)
    rows = [dict(task=f"t{t}", model=m, fold=f, accuracy=rng.uniform())
            for t in range(n_tasks) for m in models for f in range(folds)]
    return pd.DataFrame(rows)


def test_wide_and_long_give_the_same_matrix():
    wide = pd.DataFrame({"dataset": ["a", "b", "c"], "X": [1.0, 2.0, 3.0], "Y": [2.0, 2.5, 1.0]})
    long = wide.melt(id_vars="dataset", var_name="classifier", value_name="score")
    m1 = read_results(wide).score_matrix()
    m2 = read_results(long).score_matrix()
    np.testing.assert_array_equal(m1.values, m2.values)
    assert m1.tasks == m2.tasks == ("a", "b", "c") and m1.models == ("X", "Y")


def test_folds_are_averaged_with_a_stated_rule():
    df = _long()
    m = read_results(df).score_matrix()
    expected = df.groupby(["task", "model"])["accuracy"].mean().unstack()
    np.testing.assert_allclose(m.values, expected.loc[list(m.tasks), list(m.models)].to_numpy())
    assert m.aggregation == "mean of 2 measurements per cell"
    med = read_results(df).score_matrix(aggregate="median")
    assert med.aggregation.startswith("median")


def test_csv_and_parquet_round_trip(tmp_path):
    df = _long()
    df.to_csv(tmp_path / "r.csv", index=False)
    df.to_parquet(tmp_path / "r.parquet")
    a = read_results(tmp_path / "r.csv").score_matrix().values
    b = read_results(tmp_path / "r.parquet").score_matrix().values
    np.testing.assert_allclose(a, b)


def test_metric_direction_from_name_or_user():
    df = _long().rename(columns={"accuracy": "log_loss"})
    assert read_results(df).metrics == {"log_loss": False}
    df2 = _long().rename(columns={"accuracy": "weird"})
    res = read_results(df2)
    assert res.metrics == {"weird": True} and res.direction_assumed == ("weird",)
    assert read_results(df2, higher_is_better=False).metrics == {"weird": False}


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.assign(accuracy=d.accuracy.where(d.index != 3, np.nan)), "NaN"),
    (lambda d: d.assign(accuracy=d.accuracy.astype(object).where(d.index != 2, "oops")), "not numeric"),
    (lambda d: pd.concat([d, d.iloc[[0]]]), "share the same"),
    (lambda d: d.drop(index=[0, 1]), "no result"),
    (lambda d: d.assign(fold=np.where(d.index == 0, 7, d.fold)), "same"),
])
def test_bad_input_gets_a_clear_error(mutate, message):
    with pytest.raises(InvalidInputError, match=message):
        read_results(mutate(_long()))


@pytest.mark.parametrize("named_task", [False, True])
def test_two_header_rows_say_to_flatten_the_columns(named_task):
    wide = pd.DataFrame([[0.9, 0.8, 0.7, 0.6], [0.85, 0.82, 0.6, 0.5]], index=["iris", "wine"],
                        columns=pd.MultiIndex.from_product([["A", "B"], ["acc", "f1"]]))
    if named_task:
        wide = wide.rename_axis("task").reset_index()
    with pytest.raises(InvalidInputError, match=r"2 header rows .*flatten the columns"):
        read_results(wide)


def test_too_few_models():
    with pytest.raises(TooFewError, match="at least 2"):
        read_results(_long(models=("A",)))


def test_missing_file_and_bad_suffix(tmp_path):
    with pytest.raises(InvalidInputError, match="does not exist"):
        read_results(tmp_path / "nope.csv")
    (tmp_path / "x.xlsx").write_text("")
    with pytest.raises(InvalidInputError, match="csv"):
        read_results(tmp_path / "x.xlsx")


def test_several_metrics_need_a_choice():
    df = _long().assign(f1=0.5)
    res = read_results(df)
    with pytest.raises(InvalidInputError, match="several metrics"):
        res.score_matrix()
    assert res.score_matrix("f1").metric == "f1"


def test_paired_replicates_are_aligned():
    df = _long(folds=3).sample(frac=1.0, random_state=1)
    reps = read_results(df).paired_replicates("t0")
    for model, values in reps.items():
        expected = df[(df.task == "t0") & (df.model == model)].sort_values("fold").accuracy
        np.testing.assert_array_equal(values, expected.to_numpy())


def test_demsar_table6_both_versions():
    # Demšar (2006) Table 6 as printed; the paper version breaks the voting tie as the paper ranked.
    printed = load_demsar_table6(version="printed").score_matrix()
    paper = load_demsar_table6(version="paper").score_matrix()
    assert printed.models == ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
    assert printed.values.shape == (14, 4)
    diff = paper.values - printed.values
    assert np.count_nonzero(diff) == 1 and abs(diff.sum() - 1e-4) < 1e-12
    # Ranking the paper version reproduces the printed ranks of Table 6 exactly.
    ranks = load_demsar_table6_ranks()
    from scipy.stats import rankdata
    np.testing.assert_array_equal(rankdata(-paper.values, axis=1), ranks.to_numpy())
    assert np.round(rankdata(-paper.values, axis=1).mean(axis=0), 3).tolist() == [3.143, 2.0, 2.893, 1.964]
    assert np.round(rankdata(-printed.values, axis=1).mean(axis=0), 3).tolist() == [3.143, 2.0, 2.929, 1.929]


def test_demsar_table2_differences():
    # Demšar (2006) Table 2: the differences C4.5+m − C4.5 as printed in its third column.
    m = load_demsar_table2().score_matrix()
    d = np.round(m.values[:, 1] - m.values[:, 0], 3)
    assert d.tolist() == [0.005, -0.008, 0.017, 0.033, 0.006, -0.005, 0.007, 0.0, 0.063, 0.0,
                          0.022, 0.047, 0.009, 0.021]


@pytest.mark.parametrize("dtype", [object, "string"])
def test_wide_text_scores_refused_in_any_column_numeric_extension_dtypes_read(dtype):
    """The wide check looks only at non-numeric columns (by dtype): a column of
    percentages written as text is refused wherever it stands, and pandas' nullable numeric
    and boolean dtypes are read as numbers, as plain numpy columns are."""
    wide = pd.DataFrame({"A": [0.9, 0.8, 0.7], "B": pd.Series(["71%", "72%", "73%"], dtype=dtype),
                         "C": [0.5, 0.6, 0.7]})
    with pytest.raises(InvalidInputError, match="the scores of model 'B' holds percentages"):
        read_results(wide.rename_axis("task").reset_index())
    ext = pd.DataFrame({"task": ["a", "b", "c"], "A": pd.array([1, 0, 1], dtype="Int64"),
                        "B": pd.array([0.5, 0.25, 1.0], dtype="Float64"),
                        "C": [0.5, 0.6, 0.7]})
    m = read_results(ext).score_matrix()
    np.testing.assert_array_equal(m.values, [[1, 0.5, 0.5], [0, 0.25, 0.6], [1, 1.0, 0.7]])
    assert m.tasks == ("a", "b", "c") and m.models == ("A", "B", "C")


def test_reading_leaves_the_callers_frame_as_it_was():
    """canonical_columns copies (copy on write) when it renames nothing: neither the names
    nor the values of the DataFrame passed in change."""
    wide = pd.DataFrame({"task": ["a", "b"], "A": [0.9, 0.8], "B": [0.7, 0.6]})
    long = pd.DataFrame({"Dataset": ["a", "a", "b", "b"], "model": ["A", "B", "A", "B"],
                         "accuracy": [0.9, 0.7, 0.8, 0.6]})
    for df in (wide, long):
        before = df.copy(deep=True)
        read_results(df)
        pd.testing.assert_frame_equal(df, before)
