"""Loader of the uci54 10x10-fold CV accuracies (Benavoli et al. 2017 / baycomp docs)."""
import warnings

import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.data import load_uci54

ROW = " ".join(f"{v:.3f}" for v in np.linspace(70, 90, 100))


def _write(tmp_path, text):
    path = tmp_path / "uci.txt"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def real(shared_data):
    with pytest.warns(UserWarning, match="dropped 5 line.*credit"):
        return load_uci54(shared_data / "uci54_10x10cv_accuracies.txt")


def test_shape_and_schema(real):
    assert list(real.columns) == ["task", "model", "run", "fold", "score"]
    assert list(real.model.unique()) == ["nbc", "aode", "hnb", "j48", "j48gr"]
    assert real.task.nunique() == 53          # 54 lines per block, credit listed twice
    assert len(real) == 5 * 53 * 100
    counts = real.groupby(["model", "task"]).size()
    assert (counts == 100).all()
    assert not real.duplicated(["task", "model", "run", "fold"]).any()


def test_values_match_the_file(real):
    # First values of the first line of the file: "anneal 94.444 98.889 94.444 98.889 ..."
    anneal = real[(real.model == "nbc") & (real.task == "anneal")]
    np.testing.assert_array_equal(anneal.score.to_numpy()[:4], [94.444, 98.889, 94.444, 98.889])
    assert (anneal.run.to_numpy()[:12] == [0] * 10 + [1, 1]).all()
    assert (anneal.fold.to_numpy()[:12] == list(range(10)) + [0, 1]).all()
    assert real.score.between(0, 100).all()


def test_as_fraction_divides_by_100(shared_data, real):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        frac = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
    np.testing.assert_array_equal(frac.score.to_numpy(), real.score.to_numpy() / 100)


def test_exact_duplicate_is_dropped_with_a_warning(tmp_path):
    path = _write(tmp_path, f"m1\nd1 {ROW}\nd2 {ROW}\nd1 {ROW}\nm2\nd1 {ROW}\nd2 {ROW}\n")
    with pytest.warns(UserWarning, match=r"dropped 1 line.*d1 \(m1, line 4\)"):
        df = load_uci54(path)
    assert len(df) == 2 * 2 * 100


def test_conflicting_duplicate_raises(tmp_path):
    other = ROW.replace("70.000", "71.000")
    path = _write(tmp_path, f"m1\nd1 {ROW}\nd1 {other}\n")
    with pytest.raises(InvalidInputError, match="appears twice .* different values"):
        load_uci54(path)


@pytest.mark.parametrize("text, message", [
    (f"m1\nd1 {ROW} 1.0\n", "101 values"),
    ("m1\nd1 " + ROW.replace("70.000", "n/a") + "\n", "non-numeric"),
    (f"d1 {ROW}\n", "before any classifier"),
    (f"m1\nd1 {ROW}\nm1\nd2 {ROW}\n", "appears twice"),
    (f"m1\nd1 {ROW}\nm2\nd2 {ROW}\n", "same data sets"),
    ("\n\n", "no classifier block"),
])
def test_malformed_files(tmp_path, text, message):
    with pytest.raises(InvalidInputError, match=message):
        load_uci54(_write(tmp_path, text))


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_uci54(tmp_path / "absent.txt")
