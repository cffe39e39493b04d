"""Start-up cost (issue 14): each command imports the heavy libraries it uses, and no others.

Every check runs in a fresh interpreter (the modules a test process already holds say
nothing) and lists which of the heavy libraries ended up in ``sys.modules``.
"""
import subprocess
import sys

import pytest

from _paths import FIXTURES
from outperform.data import load_demsar_table6

HEAVY = ("pandas", "scipy", "scipy.stats", "scipy.optimize", "statsmodels", "sklearn",
         "matplotlib", "jax", "numpyro", "pyarrow", "inspect_ai", "joblib", "dask")
LM_EVAL = FIXTURES / "evals" / "lm_eval"


def _loaded(code: str) -> set[str]:
    """The HEAVY modules loaded by ``code`` run in a new interpreter."""
    return set(HEAVY) & _modules(code, "")


def _modules(code: str, prefix: str) -> set[str]:
    """The modules named ``prefix...`` that ``code`` run in a new interpreter loaded."""
    probe = (f"{code}\nimport sys\n"
             f"print('loaded:' + ','.join(m for m in sys.modules if m.startswith({prefix!r})))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env={"PYTHONPATH": ":".join(sys.path)})
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("loaded:"), run.stdout
    return set(filter(None, last[len("loaded:"):].split(",")))


def _cli(*args) -> str:
    # The command as `outperform ...` runs it, in this process's interpreter; exit codes
    # are checked by the CLI tests, here only what was imported.
    return ("import sys\nfrom outperform.cli import app\n"
            f"sys.argv = ['outperform', *{list(map(str, args))!r}]\n"
            "try:\n    app()\nexcept SystemExit as e:\n    assert e.code in (0, None), e.code\n")


def test_import_outperform_loads_no_heavy_library():
    assert _loaded("import outperform, outperform.plot, outperform.stats, outperform.bayes, "
                   "outperform.results, outperform.data, outperform.compare") == set()


@pytest.mark.slow
def test_help_loads_no_heavy_library():
    assert _loaded(_cli("--help")) == set()
    assert _loaded(_cli("compare-evals", "--help")) == set()


@pytest.mark.slow
def test_compare_loads_neither_plotting_nor_models(tmp_path):
    path = tmp_path / "t6.csv"
    load_demsar_table6().frame.to_csv(path, index=False)
    loaded = _loaded(_cli("compare", path))
    assert "pandas" in loaded   # the probe sees what the command used
    assert not loaded & {"matplotlib", "statsmodels", "sklearn", "jax", "numpyro", "joblib"}


@pytest.mark.skipif(not LM_EVAL.exists(), reason="lm-eval fixtures not present")
@pytest.mark.slow
def test_compare_evals_of_one_task_skips_scipy_stats():
    # The per-task analysis uses scipy.special's functions (the same ones scipy.stats
    # calls); the Q3 kernels over tasks, matplotlib and the MCMC stack are not needed.
    files = sorted(str(p) for p in LM_EVAL.glob("*/samples_mini_arc_*.jsonl"))
    assert len(files) == 2
    loaded = _loaded(_cli("compare-evals", *files))
    assert "pyarrow" in loaded
    assert not loaded & {"scipy.stats", "scipy.optimize", "matplotlib", "statsmodels",
                         "sklearn", "jax", "numpyro"}


def test_the_scipy_special_routes_equal_scipy_stats_bit_for_bit():
    # Peer: scipy.stats itself. compare-evals' kernels avoid importing scipy.stats by calling
    # the functions scipy.stats calls; a scipy release that changes either side fails here.
    import numpy as np
    from scipy import special, stats

    from outperform.bayes import bayesian_mcnemar
    from outperform.stats import mcnemar, paired_ttest

    for n01, n10 in [(0, 7), (3, 3), (5, 20), (2000, 2100), (12, 0), (60000, 61000)]:
        n = n01 + n10
        assert mcnemar(n01, n10).pvalue == min(1.0, 2 * stats.binom.cdf(min(n01, n10), n, 0.5))
        mid = mcnemar(n01, n10, method="midp").pvalue
        x = min(n01, n10)
        # at n01 = n10 the mid-p value is 1 - f/2 (Fagerland et al. 2013; their R package
        # contingencytables, McNemar_midP_test), not the doubled one-sided formula's 1
        assert mid == (1 - 0.5 * stats.binom.pmf(x, n, 0.5) if n01 == n10 else
                       min(1.0, 2 * (stats.binom.cdf(x, n, 0.5) - 0.5 * stats.binom.pmf(x, n, 0.5))))
        chi = mcnemar(n01, n10, method="chi2", correction=False).pvalue
        assert chi == stats.chi2.sf((n01 - n10) ** 2 / n, 1)
    for n01, n10 in [(0, 0), (3, 3), (5, 20), (2000, 2100)]:
        post = bayesian_mcnemar(n01, n10)
        a, b = post.details["alpha"], post.details["beta"]
        assert post.details["posterior_median"] == stats.beta.ppf(0.5, a, b)
    rng = np.random.default_rng(0)
    t, df = rng.normal(0, 4, 1000), rng.integers(1, 10**6, 1000).astype(float)
    assert np.array_equal(special.stdtr(df, -np.abs(t)), stats.t.sf(np.abs(t), df))
    assert np.array_equal(special.stdtr(df, t), stats.t.cdf(t, df))
    a, b = rng.normal(size=(2, 50))
    assert paired_ttest(a + 0.3, b).pvalue == pytest.approx(stats.ttest_rel(a + 0.3, b).pvalue,
                                                            rel=1e-12)


#: The modules of the CLI every command uses: the application, its errors, options and outputs.
CLI_CORE = {"outperform.cli._app", "outperform.cli._errors", "outperform.cli._options",
            "outperform.cli._output"}
#: Renderers of the outputs compare-evals does not write by default (issue 31: the report
#: package's names are imported on first use).
OTHER_RENDERERS = {f"outperform.report.{m}" for m in (
    "_html", "_latex", "_markdown", "_mlflow", "_files", "_json_schema", "_methods",
    "_references", "_gate_output", "_gate_sequential_output", "_items", "_results_table",
    "_style_control")}


@pytest.mark.slow
def test_help_imports_no_command_module():
    # issue 31: `outperform --help` lists every command from cli._app.COMMANDS without
    # importing any command's module; a command's own --help imports that command only.
    assert _modules(_cli("--help"), "outperform.cli._") <= CLI_CORE - {"outperform.cli._output"}
    assert (_modules(_cli("compare-evals", "--help"), "outperform.cli._")
            <= CLI_CORE | {"outperform.cli._compare_evals"})
    assert _modules(_cli("--help"), "outperform.report") == set()


@pytest.mark.skipif(not LM_EVAL.exists(), reason="lm-eval fixtures not present")
@pytest.mark.slow
def test_compare_evals_imports_neither_other_commands_nor_other_renderers():
    files = sorted(str(p) for p in LM_EVAL.glob("*/samples_mini_arc_*.jsonl"))
    loaded = _modules(_cli("compare-evals", *files), "outperform.")
    assert "outperform.cli._compare_evals" in loaded and "outperform.report._evals_output" in loaded
    commands = {m for m in loaded if m.startswith("outperform.cli._")}
    assert commands <= CLI_CORE | {"outperform.cli._compare_evals"}
    assert not loaded & OTHER_RENDERERS
