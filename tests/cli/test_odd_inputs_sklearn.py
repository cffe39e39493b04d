"""Odd-input corpus of issue 27 (scikit-learn results, numpy arrays, design sizes; Hugging
Face details): each input with its exact outcome, through the Python entry points and the
command line (exit code, message, no traceback)."""
from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, KFold, cross_validate
from sklearn.tree import DecisionTreeClassifier
from typer.testing import CliRunner

from outperform import InvalidInputError, OutperformWarning, compare
from outperform.cli import app

runner = CliRunner()
X, Y = make_classification(n_samples=40, n_features=4, random_state=0)
TREE = DecisionTreeClassifier(random_state=0)


def _search(**kw):
    return GridSearchCV(TREE, {"max_depth": [1, 3]}, cv=KFold(4), **kw).fit(X, Y)


def _folds(n_folds=6):
    rng = np.random.default_rng(0)
    return pd.DataFrame({"model": np.repeat(["A", "B"], n_folds),
                         "fold": np.tile(np.arange(n_folds), 2),
                         "accuracy": rng.uniform(0.7, 0.9, 2 * n_folds)})


REFUSED = [
    ("one cross_validate dict", lambda: compare(cross_validate(TREE, X, Y, cv=3)),
     "one model cannot be compared"),
    ("cv_results_ without its splitter", lambda: compare(_search().cv_results_),
     "pass n_train= and n_test="),
    ("top below 2", lambda: compare(_search(), top=1), "top must be an integer of at least 2"),
    ("top with a table", lambda: compare(_folds(), top=2), "top= picks the best candidates"),
    ("multi-metric without refit name",
     lambda: compare(_search(scoring=["accuracy", "f1"], refit=False)),
     "several scorers, ['accuracy', 'f1']: choose one with metric="),
    ("unknown scorer", lambda: compare(_search(), metric="f1"), "is not a scorer"),
    ("lower-is-better for sklearn scores", lambda: compare(_search(), higher_is_better=False),
     "scikit-learn's scores are all higher-is-better"),
    ("unfitted search",
     lambda: compare(GridSearchCV(TREE, {"max_depth": [1, 3]})), "is not fitted"),
    ("1-D array", lambda: compare(np.ones(5)), "must be 2-D (rows = folds"),
    ("array of folds without design", lambda: compare(np.ones((6, 2)), question="Q2"),
     "pass n_train= and n_test="),
    ("rho and n_train", lambda: compare(_folds(), rho=0.1, n_train=90, n_test=10),
     "give one of them"),
    ("n_train alone", lambda: compare(_folds(), n_train=90), "give both n_train= and n_test="),
    ("negative size", lambda: compare(_folds(), n_train=-90, n_test=10),
     "n_train must be a positive size"),
    ("sizes twice", lambda: compare(_folds().assign(n_train=90, n_test=10), n_train=90,
                                    n_test=10), "has n_train/n_test columns"),
]


@pytest.mark.parametrize("name, call, message", REFUSED, ids=[c[0] for c in REFUSED])
def test_refused(name, call, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OutperformWarning)
        with pytest.raises(InvalidInputError) as err:
            call()
    assert message in str(err.value)


def test_array_that_looks_transposed_warns():
    x = np.random.default_rng(0).uniform(0.5, 1, size=(3, 9))
    with pytest.warns(OutperformWarning, match=r"3 rows and 9 columns.*array\.T"):
        compare(x)


def test_sizes_given_to_a_fold_table_set_rho():
    # 10 folds of 100 examples: rho = n_test / (n_train + n_test) = 10 / 100 (Nadeau &
    # Bengio 2003), not the 1/6 that six fold ids would otherwise suggest.
    report = compare(_folds(), n_train=90, n_test=10)
    assert report.details["rho"] == pytest.approx(0.1)


def test_sizes_ignored_over_several_tasks_are_said():
    wide = pd.DataFrame({"task": [f"t{i}" for i in range(6)], "A": np.linspace(0.6, 0.9, 6),
                         "B": np.linspace(0.55, 0.8, 6)})
    report = compare(wide, metric="accuracy", n_train=90, n_test=10)
    assert any("option n_train=90 does not apply to Q3" in w for w in report.warnings)


@pytest.mark.parametrize("args, code, message", [
    (["--n-train", "90", "--n-test", "10"], 0, None),
    (["--n-train", "90"], 1, "give both n_train= and n_test="),
    (["--n-train", "90", "--n-test", "10", "--rho", "0.2"], 1, "give one of them"),
])
def test_cli_sizes(tmp_path, args, code, message):
    path = tmp_path / "folds.csv"
    _folds().to_csv(path, index=False)
    result = runner.invoke(app, ["compare", str(path), *args, "--format", "json"])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    if message is None:
        assert json.loads(result.stdout)["details"]["rho"] == pytest.approx(0.1)
    else:
        assert message in result.output


# Hugging Face details (data/_evals/_hf_details.py) on the command line.
def _details(root, model, rows, task="lighteval|arc:challenge|25"):
    import pyarrow as pa
    import pyarrow.parquet as pq

    date = "2024-05-01T10-00-00.000000"
    folder = root / "details" / "org" / model / date
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"details_{task}_{date}.parquet"
    if rows is None:
        path.write_text("version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 1\n")
    else:
        pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def _flat(scores):
    return [{"example": f"q{i}", "gold": ["A"], "metrics": {"acc": float(s)}}
            for i, s in enumerate(scores)]


@pytest.mark.parametrize("make, code, message", [
    (lambda r: (_details(r, "a", _flat([1] * 30 + [0] * 10)),
                _details(r, "b", _flat([1] * 20 + [0] * 20))), 0, "org/a"),
    (lambda r: _details(r, "a", None), 1, "not a readable Parquet file"),
    (lambda r: _details(r, "a", [{"example": "q", "predictions": ["x"]}]), 1,
     "missing ['metrics']"),
    (lambda r: (_details(r, "a", _flat([1, 0])), _details(r, "b", _flat([1, 1]))), 1,
     "no metric 'f1'"),
])
def test_cli_hf_details(tmp_path, make, code, message):
    make(tmp_path)
    args = ["compare-evals", str(tmp_path / "details")]
    if message == "no metric 'f1'":
        args += ["--metric", "f1"]
    result = runner.invoke(app, args)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert message in result.output
