"""Battles with style columns (data/_style_battles.py, data/_columns.py style_columns)."""
import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError
from outperform.data import read_style_battles
from outperform.data._columns import style_columns


def _table(**extra):
    df = pd.DataFrame({"model_a": ["x", "y", "x", "z"], "model_b": ["y", "z", "z", "x"],
                       "winner": ["model_a", "tie", "b", "a"]})
    for k, v in extra.items():
        df[k] = v
    return df


def test_lmarena_names_first():
    cols = ["sum_assistant_tokens_a", "sum_assistant_tokens_b", "tokens_a", "tokens_b"]
    assert style_columns(cols, "length") == [("sum_assistant_tokens", "sum_assistant_tokens_a",
                                              "sum_assistant_tokens_b")]


def test_markdown_reads_the_counts_present():
    cols = ["header_count_a", "header_count_b", "bold_count_a", "bold_count_b"]
    assert [f for f, _, _ in style_columns(cols, "markdown")] == ["header_count", "bold_count"]


def test_a_single_column_is_a_per_battle_covariate():
    df = _table(tokens_a=[1, 2, 3, 4], tokens_b=[4, 3, 2, 1], refusal=[0.0, 1.0, -1.0, 0.0])
    battles, names, a, b = read_style_battles(df, "length, refusal")
    assert names == ("tokens", "refusal")
    np.testing.assert_array_equal(a[:, 1], [0.0, 1.0, -1.0, 0.0])
    assert np.isnan(b[:, 1]).all() and not np.isnan(b[:, 0]).any()
    assert battles["winner"].tolist() == ["a", "tie", "b", "a"]


def test_rows_of_weight_zero_leave_their_features_too():
    df = _table(tokens_a=[1, 2, 3, 4], tokens_b=[5, 6, 7, 8], weight=[1, 0, 2, 1])
    battles, _, a, b = read_style_battles(df, ["length"])
    assert battles["model_a"].tolist() == ["x", "x", "z"]
    np.testing.assert_array_equal(a[:, 0], [1, 3, 4])
    np.testing.assert_array_equal(b[:, 0], [5, 7, 8])


def test_unknown_style_name_says_what_was_looked_for():
    with pytest.raises(InvalidInputError, match="no columns header_count_a/header_count_b, "
                       "list_count_a/list_count_b, bold_count_a/bold_count_b"):
        read_style_battles(_table(), "markdown")
