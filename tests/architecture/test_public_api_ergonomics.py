"""Python ergonomics (issue 24 item 5): signatures, help, reprs, renderers, errors, warnings,
the version in one place.

Every number asserted here is a property (lengths, identities, equality with the value
given as input or with another computation of it), not an output of the code under test.
"""
import dataclasses
import importlib.metadata
import inspect
import pydoc
import sys
import tomllib
import warnings

import numpy as np
import pandas as pd
import pytest

import outperform
from outperform import (ConvergenceWarning, MissingDependencyError, OutperformDeprecationWarning,
                        OutperformError, OutperformWarning, PerformanceWarning)
from outperform.data import load_demsar_table6

from _paths import ROOT  # noqa: E402

from _report_cases import three_predictors, two_models_folds  # noqa: E402

SRC = ROOT / "src" / "outperform"


def _q1_table():
    return three_predictors(300)


def _q2_table():
    return two_models_folds()


def _items(tasks=("arc", "hs", "mmlu"), models=(("a", .6), ("b", .5), ("c", .55))):
    rng = np.random.default_rng(0)
    return pd.DataFrame([dict(model=m, task=t, item=i, score=float(rng.random() < p))
                         for t in tasks for m, p in models for i in range(200)])


@pytest.fixture(scope="module")
def reports():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {"Q1": outperform.compare(_q1_table()), "Q2": outperform.compare(_q2_table()),
                "Q3": outperform.compare(load_demsar_table6(), posthoc=("nemenyi", "holm"),
                                         control="C4.5")}


@pytest.fixture(scope="module")
def evals():
    from outperform.compare import compare_evals

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compare_evals(_items())


# ---------------------------------------------------------------- signature and help

def test_signature_of_compare_is_the_implementations():
    from outperform.compare._api import compare

    assert inspect.signature(outperform.compare) == inspect.signature(compare)
    assert "alpha" in inspect.signature(outperform.compare).parameters


def test_help_of_compare_starts_at_the_function():
    from outperform.compare._api import compare

    text = pydoc.render_doc(outperform.compare, renderer=pydoc.plaintext)
    head = text[:text.index("PACKAGE CONTENTS")]
    # the signature on the NAME line, then compare's own docstring, before the package
    assert f"compare{inspect.signature(compare)}" in head.splitlines()[3]
    assert inspect.getdoc(compare).splitlines()[0] in head
    assert head.index("Compare models or algorithms") < head.index("Package outperform.compare")


def test_the_package_stays_the_package_and_light():
    import subprocess

    code = ("import sys, inspect, outperform; inspect.signature(outperform.compare); "
            "import outperform.compare as oc; assert oc.__name__ == 'outperform.compare'; "
            "print('pandas' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": ":".join(sys.path)})
    assert run.returncode == 0, run.stderr
    # the signature needs the implementation (pandas), loaded on that use only
    assert run.stdout.strip() == "True"
    run = subprocess.run([sys.executable, "-c", "import sys, outperform; "
                          "print('pandas' in sys.modules)"], capture_output=True, text=True,
                         env={"PYTHONPATH": ":".join(sys.path)})
    assert run.stdout.strip() == "False"


# ---------------------------------------------------------------- reprs

@pytest.mark.parametrize("question", ["Q1", "Q2", "Q3"])
def test_repr_of_a_report_is_short_and_names_the_question(reports, question):
    report = reports[question]
    text = repr(report)
    assert len(text) < 400, text
    assert f"question={question!r}" in text
    assert all(m in text for m in report.models[:3])
    assert "\n" not in text and str(report) == text
    for result in [*report.tests.values(), *report.posthoc.values()]:
        assert len(repr(result)) < 400 and repr(result).startswith(type(result).__name__ + "(")


def test_repr_of_twenty_models_counts_the_rest():
    from outperform.results import ComparisonReport

    models = tuple(f"model-{i:02d}" for i in range(20))
    report = ComparisonReport("Q3", "accuracy", True, models, 30, 0.05, (), {}, "friedman",
                              "", conclusions=("x" * 1000,))
    text = repr(report)
    assert len(text) < 400 and "14 more" in text and "model-05" in text and "model-06" not in text


def test_every_result_class_has_the_common_surface():
    import outperform.results as results
    from outperform.results._base import Result

    classes = [getattr(results, n) for n in results.__all__ if isinstance(getattr(results, n),
                                                                           type)]
    assert len(classes) >= 19
    for cls in classes:
        assert issubclass(cls, Result), cls
        for method in ("to_dict", "to_frame", "_repr_html_", "__repr__"):
            assert callable(getattr(cls, method)), (cls, method)


# ---------------------------------------------------------------- renderers

def test_every_renderer_returns_a_string(reports):
    from outperform import report as rp

    renderers = [n for n in rp.__all__ if n.startswith("render_")]
    assert set(renderers) == {"render_html", "render_html_fragment", "render_json",
                              "render_latex", "render_markdown", "render_text", "render_output"}
    for name in set(renderers) - {"render_output"}:
        out = getattr(rp, name)(reports["Q3"])
        assert isinstance(out, str) and len(out) > 500, name
    # render_output renders the command line's results (leaderboards, runs, plans, ...)
    from outperform.plan import mcnemar_power
    from outperform.report._output_kinds import plan_output

    output = plan_output(mcnemar_power(accuracy_a=0.80, accuracy_b=0.82, discordance=0.15,
                                       power=0.8))
    for fmt in ("text", "markdown", "json", "html", "latex"):
        out = rp.render_output(output, fmt)
        assert isinstance(out, str) and "0.15" in out, fmt


def test_render_text_prints_only_on_a_given_console(reports, capsys):
    import io

    from rich.console import Console

    from outperform.report import render_text

    text = render_text(reports["Q3"])
    assert capsys.readouterr().out == ""
    assert "Iman" in text and "\x1b[" not in text
    buffer = io.StringIO()
    again = render_text(reports["Q3"], console=Console(file=buffer, width=110, color_system=None))
    assert again == text == buffer.getvalue()


# ---------------------------------------------------------------- EvalComparison

def test_eval_comparison_to_frame_has_a_row_per_pair_and_task(evals):
    frame = evals.to_frame()
    n_pairs = sum(len(v) for v in evals.per_task.values())
    assert n_pairs == 3 * 3    # 3 tasks x C(3, 2) pairs
    per_task = frame[frame["analysis"] == "per task"]
    assert len(per_task) == n_pairs
    assert set(per_task["task"]) == {"arc", "hs", "mmlu"}
    assert (frame["analysis"] == "across tasks").sum() == (evals.across_tasks is not None)
    first = evals.per_task["arc"][0]
    assert per_task.iloc[0]["pvalue"] == first.tests[first.recommended].pvalue


def test_eval_comparison_repr_and_notebook_display(evals):
    assert len(repr(evals)) < 400 and "EvalComparison(models=" in repr(evals)
    html = evals._repr_html_()
    assert html.startswith('<div class="outperform-report">') and "<table" in html
    assert all(f'<td class="text">{task}</td>' in html for task in evals.tasks)


def test_runs_comparison_has_a_notebook_display():
    from outperform.compare import compare_runs

    rng = np.random.default_rng(2)
    frame = pd.DataFrame([dict(task=f"t{t}", model=m, run=r, score=rng.normal(s, 1))
                          for t in range(4) for m, s in (("a", 1), ("b", 0)) for r in range(5)])
    runs = compare_runs(frame, metric="score", higher_is_better=True, n_resamples=200,
                        random_state=0)
    assert "<table" in runs._repr_html_() and len(repr(runs)) < 400


# ---------------------------------------------------------------- typed runs

def test_report_runs_is_typed_and_reported(reports):
    from outperform.compare import compare_runs
    from outperform.report import render_markdown
    from outperform.results import RunsComparison

    report = reports["Q3"]
    assert report.runs is None
    rng = np.random.default_rng(3)
    frame = pd.DataFrame([dict(task=f"t{t}", model=m, run=r, score=rng.normal(s, 1))
                          for t in range(4) for m, s in (("a", 1), ("b", 0)) for r in range(5)])
    runs = compare_runs(frame, metric="score", higher_is_better=True, n_resamples=200,
                        random_state=0)
    with_runs = dataclasses.replace(report, runs=runs)
    assert isinstance(with_runs.runs, RunsComparison)
    json_runs = with_runs.to_dict()["details"]["runs"]
    assert json_runs["models"] == ["a", "b"] and "profiles" not in json_runs
    assert "Runs over tasks" in render_markdown(with_runs)
    from outperform.report import validate_report

    validate_report(with_runs.to_dict())


# ---------------------------------------------------------------- details as attributes

def test_details_read_as_attributes_keep_dict_access():
    from outperform.stats import tost

    a = np.array([0.81, 0.83, 0.79, 0.84, 0.80, 0.82])
    res = tost(a, [0.80, 0.83, 0.77, 0.84, 0.78, 0.82], margin=0.02)
    assert res.margin == 0.02 == res.details["margin"]       # the margin given
    assert res.standard_error is res.details["standard_error"]
    assert res.n_clusters is None and "n_clusters" not in res.details
    assert res.perfect_agreement is False


def test_pairwise_bayesian_attributes_are_its_details(reports):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = outperform.compare(load_demsar_table6(), bayesian=True, random_state=0)
    tables = [r for r in report.posthoc.values() if "p_rope" in r.details]
    assert tables
    for res in tables:
        assert res.p_rope is res.details["p_rope"] and res.decision is res.details["decision"]
        assert np.shape(res.decision) == (len(res.names), len(res.names))


# ---------------------------------------------------------------- errors and warnings

def test_missing_numpyro_raises_one_error_naming_the_extra(monkeypatch):
    from outperform.bayes import hierarchical_correlated_ttest, robust_bayesian_ttest

    monkeypatch.setitem(sys.modules, "numpyro", None)
    rng = np.random.default_rng(0)
    with pytest.raises(MissingDependencyError, match=r"NumPyro is needed .*"
                       r"pip install 'outperform\[bayes\]'") as info:
        hierarchical_correlated_ttest(rng.normal(size=(5, 10)), rng.normal(size=(5, 10)),
                                      rho=0.1)
    assert isinstance(info.value, ImportError) and isinstance(info.value, OutperformError)
    assert info.value.extra == "bayes" and info.value.name == "numpyro"
    with pytest.raises(MissingDependencyError, match=r"outperform\[bayes\]"):
        robust_bayesian_ttest(rng.normal(size=20), rng.normal(size=20))


def test_missing_distributed_raises_the_error_naming_dask(monkeypatch):
    from outperform._parallel import dask_client

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'outperform\[dask\]'"):
        dask_client()


def test_warning_classes_are_filterable_user_warnings():
    for cls in (ConvergenceWarning, PerformanceWarning, OutperformDeprecationWarning):
        assert issubclass(cls, OutperformWarning)
    assert issubclass(OutperformWarning, UserWarning)
    assert issubclass(ConvergenceWarning, RuntimeWarning)        # as before: RuntimeWarning
    assert issubclass(OutperformDeprecationWarning, DeprecationWarning)


def test_mcmc_convergence_warning():
    from outperform.bayes._mcmc import check_convergence

    diag = {"delta": (np.array([1.2]), np.array([50.0]))}    # R-hat 1.2 > 1.01, ESS 50 < 400
    with pytest.warns(ConvergenceWarning, match="may not have converged"):
        assert check_convergence("test model", diag)[2] is False


def test_package_warnings_are_outperform_warnings():
    from outperform.stats import naive_kfold_ttest

    with warnings.catch_warnings():
        warnings.simplefilter("error", OutperformWarning)
        with pytest.raises(OutperformWarning, match="not calibrated"):
            naive_kfold_ttest([0.81, 0.83, 0.79, 0.84], [0.80, 0.80, 0.78, 0.81])


#: modules allowed to warn with a class that is not the package's (none)
ELSEWHERE: set[str] = set()
CLASSES = {"OutperformWarning", "ConvergenceWarning", "PerformanceWarning",
           "OutperformDeprecationWarning"}


def test_every_warning_the_package_emits_has_a_package_class():
    import ast

    bad = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "warn" and isinstance(node.func.value, ast.Name)
                    and node.func.value.id in ("warnings", "_warnings")):
                category = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "category"), None)
                if not (isinstance(category, ast.Name) and category.id in CLASSES):
                    bad.append(f"{rel}:{node.lineno}")
    assert {b.split(":")[0] for b in bad} <= ELSEWHERE, bad


# ---------------------------------------------------------------- version

def test_the_version_is_written_once():
    assert outperform.__version__ == importlib.metadata.version("outperform")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "outperform.__version__"}


def test_report_description_attributes_are_the_inputs(reports):
    q1, q3 = reports["Q1"], reports["Q3"]
    assert q1.n_examples == 300 and q1.loss == "zero-one"          # the table given, the default
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q2 = outperform.compare(_q2_table(), rho=0.2, rope=0.01)
    assert (q2.rho, q2.task, q2.rope) == (0.2, "iris", 0.01)         # as given
    assert q2.rho_source == q2.details["rho_source"]
    assert q3.aggregation == q3.details["aggregation"] and q3.missing_cells == ()
