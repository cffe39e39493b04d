"""data/_arrays.py: a numpy array where a table is expected (rows = folds or tasks,
columns = models)."""
import numpy as np
import pandas as pd
import pytest

import outperform
from outperform import InvalidInputError, OutperformWarning
from outperform.data import load_demsar_table6, read_array


def test_array_of_tasks_gives_the_same_report_as_the_wide_table():
    # Demšar (2006) Table 6 as a bare array: the same Friedman statistic as the table.
    x = load_demsar_table6().score_matrix().values
    from_array = outperform.compare(x)
    from_table = outperform.compare(pd.DataFrame(x, columns=[f"model_{j}" for j in
                                                             range(x.shape[1])]))
    assert from_array.tests["iman_davenport"].statistic == from_table.tests["iman_davenport"].statistic
    assert set(from_array.models) == {f"model_{j}" for j in range(x.shape[1])}
    assert from_array.warnings[0].startswith("DIRECTION:")
    assert from_array.details["source"]["orientation"].startswith("rows = folds")


def test_array_of_folds_needs_the_design():
    x = np.array([[0.80, 0.78], [0.82, 0.80], [0.79, 0.80], [0.85, 0.81], [0.81, 0.79]])
    with pytest.raises(InvalidInputError, match="n_train= and n_test="):
        outperform.compare(x, question="Q2")
    report = outperform.compare(x, question="Q2", n_train=80, n_test=20,
                                higher_is_better=True)
    assert report.details["rho"] == pytest.approx(0.2)
    assert report.models == ("model_0", "model_1")


def test_transposed_looking_array_warns_and_names_the_orientation():
    x = np.random.default_rng(0).random((3, 8))
    with pytest.warns(OutperformWarning, match=r"rows = folds .* columns = models.*array\.T"):
        read_array(x)


@pytest.mark.parametrize("x, match", [
    (np.ones(4), "must be 2-D"),
    (np.ones((4, 1)), "one model"),
    (np.array([["a", "b"], ["c", "d"]]), "non-numeric"),
])
def test_bad_arrays_refused_with_the_orientation(x, match):
    with pytest.raises(InvalidInputError, match=match):
        read_array(x)


def test_names_given():
    t = read_array(np.ones((3, 2)), names=["A", "B"])
    assert t["model"].unique().tolist() == ["A", "B"]
    with pytest.raises(InvalidInputError, match="one name per column"):
        read_array(np.ones((3, 2)), names=["A"])


def test_prediction_array_gives_the_table_report():
    from outperform.compare import compare_predictions

    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 60)
    x = np.column_stack([np.where(rng.random(60) < 0.9, y, 1 - y),
                         np.where(rng.random(60) < 0.7, y, 1 - y)])
    from_array = compare_predictions(x, y_true=y, models=["A", "B"])
    from_table = compare_predictions(pd.DataFrame({"y_true": y, "A": x[:, 0], "B": x[:, 1]}))
    assert from_array.tests["mcnemar"].pvalue == from_table.tests["mcnemar"].pvalue
    assert from_array.models == ("A", "B")
    with pytest.raises(InvalidInputError, match="rows = test examples, columns = models"):
        compare_predictions(x, y_true=y[:10])
    with pytest.warns(OutperformWarning, match=r"array\.T"):
        from outperform.data._arrays import read_prediction_array
        read_prediction_array(np.ones((3, 6)), [1, 0, 1])


def test_item_array_ranks_as_the_long_table():
    from outperform.compare import leaderboard

    rng = np.random.default_rng(0)
    x = (rng.random((300, 3)) < [0.9, 0.85, 0.6]).astype(int)
    long = pd.DataFrame({"model": np.tile(["model_0", "model_1", "model_2"], 300),
                         "example": np.repeat(np.arange(300), 3), "score": x.ravel()})
    a, b = leaderboard(x, n_resamples=200), leaderboard(long, n_resamples=200)
    assert a.to_frame().equals(b.to_frame())
