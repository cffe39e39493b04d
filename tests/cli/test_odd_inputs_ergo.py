"""Odd inputs of the Python surface (issue 25 "It must show", issue 24 item 5): missing
optional dependencies, warnings, reprs of unusual results, renderers, absent details.

Each case gives the input and the exact outcome: the exception class and a message
substring, the warning class and a message substring, or the right answer (a property:
equal to an input, or to another computation of the same thing).
"""
import dataclasses
import io
import pickle
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import outperform
from outperform import (ConvergenceWarning, MissingDependencyError, OutperformDeprecationWarning,
                        OutperformWarning)
from outperform._validation import require
from outperform.results import ComparisonReport, FrequentistResult, PairwiseResult
from outperform.results._base import short_value

RNG = np.random.default_rng(0)


def _block(monkeypatch, *modules):
    for m in modules:
        monkeypatch.setitem(sys.modules, m, None)


# ------------------------------------------------- missing optional dependencies (Python)

MISSING = [
    # (modules blocked, module required, message substring)
    (("numpyro",), "numpyro", "NumPyro is needed: pip install 'outperform[bayes]'"),
    (("jax",), "jax", "JAX is needed: pip install 'outperform[bayes]'"),
    (("jaxlib",), "jaxlib", "JAX is needed: pip install 'outperform[bayes]'"),
    (("distributed",), "distributed", "dask.distributed is needed: pip install 'outperform[dask]'"),
    (("dask",), "dask", "Dask is needed: pip install 'outperform[dask]'"),
    (("inspect_ai",), "inspect_ai", "inspect_ai is needed: pip install 'outperform[inspect]'"),
    (("numba",), "numba", "numba is needed: pip install 'outperform[fast]'"),
    (("numpyro", "numpyro.infer"), "numpyro.infer", "NumPyro is needed: pip install 'outperform[bayes]'"),
]


@pytest.mark.parametrize("blocked, module, message", MISSING)
def test_a_missing_extra_names_it(monkeypatch, blocked, module, message):
    _block(monkeypatch, *blocked)
    with pytest.raises(MissingDependencyError) as info:
        require(module)
    assert str(info.value) == message
    assert isinstance(info.value, ImportError) and isinstance(info.value, outperform.OutperformError)


def test_a_missing_module_that_is_no_extra_stays_a_bug():
    # not an optional dependency: a broken install or a typo, not the user's to fix by an extra
    with pytest.raises(ModuleNotFoundError) as info:
        require("outperform_no_such_module")
    assert not isinstance(info.value, MissingDependencyError)


def test_the_error_names_what_needs_the_dependency(monkeypatch):
    _block(monkeypatch, "numpyro")
    with pytest.raises(MissingDependencyError,
                       match=r"^NumPyro is needed for the MCMC: pip install 'outperform\[bayes\]'$"):
        require("numpyro", "the MCMC")


def test_the_error_pickles_with_its_message(monkeypatch):
    _block(monkeypatch, "numpyro")
    with pytest.raises(MissingDependencyError) as info:
        require("numpyro")
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is MissingDependencyError and str(again) == str(info.value)
    assert again.extra == "bayes"


MCMC_CALLS = {
    "hierarchical t-test": lambda: outperform.bayes.hierarchical_correlated_ttest(
        RNG.normal(size=(5, 10)), RNG.normal(size=(5, 10)), rho=0.1),
    "robust t-test": lambda: outperform.bayes.robust_bayesian_ttest(RNG.normal(size=20),
                                                                    RNG.normal(size=20)),
    "Plackett-Luce": lambda: outperform.bayes.plackett_luce(RNG.normal(size=(6, 3))),
}


@pytest.mark.parametrize("blocked", ["numpyro", "jax"])
@pytest.mark.parametrize("call", sorted(MCMC_CALLS))
def test_mcmc_without_the_bayes_extra(monkeypatch, call, blocked):
    import outperform.bayes  # noqa: F401  (the package before the block)

    _block(monkeypatch, blocked)
    with pytest.raises(MissingDependencyError, match=r"pip install 'outperform\[bayes\]'"):
        MCMC_CALLS[call]()


def test_the_command_line_prints_the_extra_in_one_line(monkeypatch, tmp_path):
    from outperform.cli import app

    noise = np.random.default_rng(0).normal(0, 0.02, (6, 2, 5))
    rows = [{"task": f"t{t}", "model": m, "fold": f, "accuracy": 0.8 - 0.02 * i + noise[t, i, f]}
            for t in range(6) for i, m in enumerate("AB") for f in range(5)]
    path = tmp_path / "folds.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    _block(monkeypatch, "numpyro")
    res = CliRunner().invoke(app, ["compare", str(path), "--hierarchical"])
    assert res.exit_code == 1
    assert "NumPyro is needed" in res.stderr and "pip install 'outperform[bayes]'" in res.stderr
    assert "Traceback" not in res.stderr


# ------------------------------------------------- warnings users can filter

def _naive():
    from outperform.stats import naive_kfold_ttest

    return naive_kfold_ttest([0.81, 0.83, 0.79, 0.84], [0.80, 0.80, 0.78, 0.81])


def _against_reference():
    import outperform.stats as st

    return st.against_reference


def _reference_keyword():
    from outperform.compare import compare_predictions

    y = np.array([0, 1] * 50)
    frame = pd.DataFrame({"y_true": y, "a": y, "b": np.where(np.arange(100) < 10, 1 - y, y)})
    return compare_predictions(frame, reference="a")


def _divergences():
    from outperform.bayes._mcmc import check_convergence

    return check_convergence("m", {"x": (np.array([1.0]), np.array([4000.0]))}, divergent=3)


WARNS = [
    (_naive, OutperformWarning, "not calibrated"),
    (_naive, UserWarning, "not calibrated"),                       # as before
    (_against_reference, OutperformDeprecationWarning, "against_control"),
    (_against_reference, DeprecationWarning, "against_control"),   # as before
    (_reference_keyword, OutperformDeprecationWarning, "use control="),
    (_divergences, ConvergenceWarning, "3 divergent transitions"),
    (_divergences, RuntimeWarning, "may not have converged"),      # as before
]


@pytest.mark.parametrize("call, category, message", WARNS,
                         ids=[f"{c.__name__}-{k.__name__}" for c, k, _ in WARNS])
def test_the_package_warns_with_its_classes(call, category, message):
    with pytest.warns(category, match=message):
        call()


def test_one_filter_silences_the_package():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=OutperformWarning)
        _naive()
        _divergences()
    assert seen == []


# ------------------------------------------------- short reprs of unusual results

def _report(models, conclusions=()):
    return ComparisonReport("Q3", "accuracy", True, tuple(models), 30, 0.05, (), {},
                            "friedman", "", conclusions=tuple(conclusions))


REPRS = [
    # (object, substring that must be in the repr, substring that must not)
    (_report([f"m{i}" for i in range(20)]), "14 more", "'m6'"),
    (_report("ab", ["x" * 1000]), "x" * 97 + "...'", "x" * 98),
    (_report("ab"), "recommended='friedman'", "decision="),
    (FrequentistResult(float("nan"), float("nan"), "t"), "statistic=nan, pvalue=nan", "estimate"),
    (FrequentistResult(1.0, 0.5, "t", estimate=0.123456), "estimate=0.1235", "details"),
    (PairwiseResult("Nemenyi", ("a", "b", "c"), np.zeros((3, 3)), np.ones((3, 3)),
                    np.ones((3, 3)), np.eye(3, dtype=bool), 0.05, "nemenyi"),
     "significant_pairs='0 of 3'", "array("),
]


@pytest.mark.parametrize("obj, present, absent", REPRS)
def test_repr_of_odd_results(obj, present, absent):
    text = repr(obj)
    assert present in text and absent not in text and len(text) < 400


@pytest.mark.parametrize("value, shown", [
    (np.float64("inf"), "inf"), (np.bool_(True), "True"), (np.int64(7), "7"),
    (float("nan"), "nan"), (np.arange(4.0), "array(shape=(4,))"), ({"a": 1}, "{1 entries}"),
])
def test_short_values(value, shown):
    assert short_value(value) == shown


# ------------------------------------------------- renderers, details, displays

def test_a_document_of_a_non_result_is_refused():
    from outperform.report._document import result_document

    with pytest.raises(TypeError, match="no document for a int"):
        result_document(42)


def test_render_text_on_a_console_returns_what_it_printed():
    from rich.console import Console

    from outperform.data import load_demsar_table6
    from outperform.report import render_text

    report = outperform.compare(load_demsar_table6())
    buffer = io.StringIO()
    text = render_text(report, console=Console(file=buffer, width=90, color_system=None))
    assert text == buffer.getvalue() and max(map(len, text.splitlines())) <= 90


def test_absent_details_read_as_their_defaults():
    res = FrequentistResult(1.0, 0.5, "t")
    assert (res.margin, res.n_clusters, res.perfect_agreement) == (None, None, False)
    table = REPRS[-1][0]
    assert (table.cycles, table.untested_pairs, table.incomplete_data) == ((), (), False)


def test_an_evaluation_of_one_task_has_no_row_over_tasks():
    from outperform.compare import compare_evals

    rng = np.random.default_rng(0)
    frame = pd.DataFrame([dict(model=m, task="arc", item=i, score=float(rng.random() < p))
                          for m, p in (("a", .6), ("b", .5)) for i in range(100)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = compare_evals(frame).to_frame()
    assert list(out["analysis"]) == ["per task"] and list(out["models"]) == ["a vs b"]


def test_a_report_without_runs_says_so_and_one_with_runs_keeps_them_typed():
    from outperform.data import load_demsar_table6

    report = outperform.compare(load_demsar_table6())
    assert report.runs is None and "runs" not in report.to_dict()["details"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.runs = None
