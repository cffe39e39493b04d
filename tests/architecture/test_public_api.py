"""The public surface: each package's __init__ and its __all__ (scikit-learn's convention)."""
import importlib
import pickle
import pkgutil
import subprocess
import sys

import pytest

import outperform

from _report_cases import three_predictors, two_models_folds  # noqa: E402

PACKAGES = sorted(m.name for m in pkgutil.iter_modules(outperform.__path__, "outperform.")
                  if m.ispkg)
PRIVATE_MODULES = sorted(
    f"{pkg}.{m.name}" for pkg in PACKAGES
    for m in pkgutil.iter_modules(importlib.import_module(pkg).__path__) if not m.ispkg)


def test_every_package_is_found():
    assert {"outperform.stats", "outperform.bayes", "outperform.compare", "outperform.plot",
            "outperform.report", "outperform.data"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_name_in_all_imports(package):
    mod = importlib.import_module(package)
    assert mod.__all__, f"{package} declares no public names"
    assert len(set(mod.__all__)) == len(mod.__all__), "a name is listed twice"
    for name in mod.__all__:
        assert getattr(mod, name) is not None, f"{package}.{name}"


@pytest.mark.parametrize("module", PRIVATE_MODULES)
def test_implementation_modules_are_private(module):
    # Only private module names: a public function can never shadow its module again.
    assert module.rsplit(".", 1)[1].startswith("_"), module


@pytest.mark.parametrize("module", PRIVATE_MODULES)
def test_nothing_public_is_reachable_only_by_a_private_path(module):
    package = importlib.import_module(module.rsplit(".", 1)[0])
    declared = getattr(importlib.import_module(module), "__all__", [])
    missing = [n for n in declared if n not in package.__all__]
    assert not missing, f"{module} declares {missing} public, but {package.__name__} does not export them"


# A fresh interpreter each; those importing scikit-learn or statsmodels take seconds.
@pytest.mark.parametrize("package", [
    pytest.param(p, marks=pytest.mark.slow) if p.rsplit(".", 1)[1] in ("experiments", "plan", "simulate")
    else p for p in PACKAGES])
def test_import_as_gives_the_package(package):
    # `import outperform.compare as m` used to give the function compare (issue 13).
    code = f"import {package} as m; assert m.__name__ == {package!r}; print(sorted(m.__all__)[0])"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_compare_is_the_package_and_callable():
    import outperform.compare as oc
    from outperform.data import load_demsar_table6

    assert oc.compare_many_tasks is not None
    # Demšar (2006) §3.2.4: Iman–Davenport F_F = 3.69 on Table 6, recommended over Friedman.
    report = outperform.compare(load_demsar_table6())
    assert report.recommended == "iman_davenport"
    assert report.tests["iman_davenport"].statistic == pytest.approx(3.69, abs=0.005)


def test_import_outperform_imports_neither_matplotlib_nor_sklearn():
    code = ("import sys, outperform, outperform.plot; "
            "print(sorted(m for m in ('matplotlib', 'sklearn', 'jax') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


def test_plot_names_resolve_lazily():
    import outperform.plot as plot

    for name in plot.__all__:
        assert callable(getattr(plot, name))
    with pytest.raises(AttributeError):
        plot.no_such_plot  # noqa: B018


def _q1_table():
    return three_predictors(400)


def _q2_table():
    return two_models_folds()


@pytest.mark.parametrize("question", ["Q1", "Q2", "Q3"])
def test_reports_round_trip_through_pickle(question):
    from outperform.data import load_demsar_table6

    data = {"Q1": _q1_table, "Q2": _q2_table, "Q3": load_demsar_table6}[question]()
    report = outperform.compare(data, **({"control": "C4.5"} if question == "Q3" else {}))
    assert report.question == question
    again = pickle.loads(pickle.dumps(report))
    assert again.to_dict() == report.to_dict()
    for name, result in report.tests.items():
        assert pickle.loads(pickle.dumps(result)).to_dict() == result.to_dict(), name


def test_the_old_name_of_against_control_warns_and_forwards():
    import outperform.stats as st

    with pytest.warns(DeprecationWarning, match="against_control"):
        old = st.against_reference
    assert old is st.against_control
