"""The papers' studies by name (quick and full sizes) and the plots of simulation tables."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from outperform import InvalidInputError  # noqa: E402
from outperform.plot._simulation import (plot_auc_curves, plot_power_curves,  # noqa: E402
                                        plot_replicability)
from outperform.simulate import _figures as figures  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def fig3():
    return figures.lacoste_fig3()


def test_figure_3_poisson_binomial_at_least_sign_for_every_n(fig3):
    wide = fig3.pivot(index="n_data_sets", columns="test", values=["auc", "mc_se"])
    diff = wide["auc"]["poisson_binomial"] - wide["auc"]["sign"]
    se = np.hypot(wide["mc_se"]["poisson_binomial"], wide["mc_se"]["sign"])
    assert list(wide.index) == [3, 5, 10, 20]
    assert np.all(diff > -2 * se)
    # The Wilcoxon test is close to the Poisson-binomial test on this symmetric context.
    assert np.all(np.abs(wide["auc"]["wilcoxon"] - wide["auc"]["poisson_binomial"]) < 0.1)


def test_figure_4_and_5_auc_grows_with_the_evidence():
    fig4 = figures.lacoste_fig4()
    for _, rows in fig4.groupby("test"):
        assert np.all(np.diff(rows.sort_values("n_data_sets")["auc"]) > -0.02)
    fig5 = figures.lacoste_fig5()
    assert set(fig5["n_data_sets"]) == {21}
    pb = fig5[fig5["test"] == "poisson_binomial"].sort_values("n_test")
    assert pb["auc"].iloc[-1] > pb["auc"].iloc[0]


def test_bimodal_figure_shows_the_wilcoxon_failure():
    t = figures.lacoste_bimodal().set_index("test")
    assert t.loc["wilcoxon", "auc"] + 3 * t.loc["wilcoxon", "mc_se"] < 0.5
    assert t.loc["sign", "auc"] > 0.8 and t.loc["poisson_binomial", "auc"] > 0.8
    assert set(t["n_test"]) == {100001}


def test_corani_and_demsar_figures_run_at_small_sizes(monkeypatch):
    monkeypatch.setitem(figures.SIZES["corani-fig2a"], "quick",
                        {"deltas": (0.0, 0.1), "n_repetitions": 30})
    monkeypatch.setitem(figures.SIZES["corani-fig2b"], "quick",
                        {"deltas": (0.0, 0.05), "n_repetitions": 30})
    monkeypatch.setitem(figures.SIZES["demsar-replicability"], "quick",
                        {"biases": (0, 20), "n_repetitions": 20})
    a = figures.run_figure("corani-fig2a")
    assert set(a["distribution"]) == {"fixed"} and set(a["n_runs"]) == {1, 10}
    assert np.all(a[a["delta_acc"] == 0.1]["rejection_rate"] > 0.9)
    b = figures.run_figure("corani-fig2b")
    assert set(b["distribution"]) == {"cauchy"}
    d = figures.run_figure("demsar-replicability")
    assert set(d["k"]) == {0.0, 20.0} and "replicability_e" in d.columns
    for name, table in (("corani-fig2a", a), ("corani-fig2b", b), ("demsar-replicability", d)):
        ax = figures.plot_figure(name, table)         # what the CLI calls before ax.figure.savefig
        assert ax.figure is not None
    assert len(figures.plot_figure("demsar-replicability", d).figure.axes) == 4   # 2 panels + twins


def test_full_sizes_are_the_papers(monkeypatch):
    calls = {}

    def fake_auc(context, n_data_sets, **kwargs):
        calls.setdefault("auc", []).append((context, n_data_sets, kwargs["n_repetitions"]))
        return pd.DataFrame()

    def fake_power(deltas, **kwargs):
        calls.setdefault("power", []).append((tuple(deltas), kwargs))
        return pd.DataFrame()

    monkeypatch.setattr(figures, "lacoste_auc", fake_auc)
    monkeypatch.setattr(figures, "corani_power", fake_power)
    for name in ("lacoste-fig3", "lacoste-fig4", "lacoste-bimodal", "corani-fig2a",
                 "corani-fig2b"):
        figures.run_figure(name, full=True)
    fig3, fig4, bimodal = calls["auc"]
    assert fig3[0].name == "single Dirichlet" and fig3[0].n_test == (1001,)
    assert fig4[0].name == "multiple Dirichlet" and fig4[0].alphas.shape == (22, 3)
    assert bimodal[0].n_test == (100001,) and 14 in bimodal[1]
    assert all(call[2] == 100_000 for call in calls["auc"])       # M = 10^5 (§6.3)
    (a_deltas, a_kw), (b_deltas, b_kw) = calls["power"]
    assert a_deltas == pytest.approx(np.arange(11) * 0.01) and a_kw["distribution"] == "fixed"
    assert b_deltas == pytest.approx(np.arange(6) * 0.01) and b_kw["distribution"] == "cauchy"
    assert a_kw["n_repetitions"] == b_kw["n_repetitions"] == 5000
    fig5 = figures.SIZES["lacoste-fig5"]["full"]
    assert fig5["n_repetitions"] == 100_000 and 1001 in fig5["n_test"]
    assert figures.SIZES["demsar-replicability"]["full"]["n_repetitions"] == 1000


def test_every_named_study_has_the_cli_signature():
    assert set(figures.FIGURES) == {"lacoste-fig3", "lacoste-fig4", "lacoste-fig5",
                                    "lacoste-bimodal", "corani-fig2a", "corani-fig2b",
                                    "demsar-replicability"}
    import inspect

    for study, _ in figures.FIGURES.values():
        params = inspect.signature(study).parameters
        assert {"full", "random_state", "progress"} <= set(params)
        assert all(p.kind == p.KEYWORD_ONLY for p in params.values())


def test_run_figure_rejects_unknown_names():
    with pytest.raises(InvalidInputError, match="name"):
        figures.run_figure("lacoste-fig9")
    with pytest.raises(InvalidInputError, match="DataFrame"):
        figures.plot_figure("lacoste-fig3", [1, 2])


# --- plots ---------------------------------------------------------------------------------

def test_auc_curves_draw_one_line_per_test_with_bands(fig3):
    ax = plot_auc_curves(fig3)
    lines = [line for line in ax.get_lines() if line.get_label() in
             ("sign test", "Wilcoxon signed-rank", "Poisson-binomial")]
    assert len(lines) == 3
    sign = fig3[fig3["test"] == "sign"].sort_values("n_data_sets")
    np.testing.assert_allclose(lines[0].get_ydata(), sign["auc"])
    assert len(ax.collections) == 3          # the +-2 SE bands
    assert "single Dirichlet" in ax.get_title()


def test_auc_curves_against_test_size_use_a_log_axis():
    t = pd.DataFrame({"test": "sign", "n_test": [11, 101, 1001], "auc": [0.6, 0.7, 0.8],
                      "mc_se": 0.01})
    assert plot_auc_curves(t, x="n_test").get_xscale() == "log"


def test_power_curves_share_colours_per_test_and_styles_per_runs():
    t = pd.DataFrame({"test": ["P", "P", "S", "S"] * 2, "n_runs": [1] * 4 + [10] * 4,
                      "delta_acc": [0, 0.1] * 4, "rejection_rate": np.linspace(0, 1, 8),
                      "mc_se": 0.01, "alpha": 0.05})
    ax = plot_power_curves(t)
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert lines["P, 1 run"].get_color() == lines["P, 10 runs"].get_color()
    assert lines["P, 1 run"].get_linestyle() != lines["P, 10 runs"].get_linestyle()
    assert lines["P, 1 run"].get_color() != lines["S, 1 run"].get_color()


def test_replicability_plot_and_bad_tables():
    t = pd.DataFrame({"k": [0, 10] * 2, "test": ["a", "a", "b", "b"],
                      "kind": "two classifiers", "mean_pvalue": [0.4, 0.1, 0.5, 0.3],
                      "replicability_p": 0.9, "rejection_rate": [0.1, 0.6, 0.0, 0.2],
                      "mc_se": 0.02, "replicability_e": [0.8, 0.5, 1.0, 0.7]})
    left, right = plot_replicability(t)
    assert left.yaxis_inverted()
    assert [line.get_label() for line in right.get_lines()] == ["a", "b"]
    with pytest.raises(InvalidInputError, match="kind"):
        plot_replicability(t, kind="multiple classifiers")
    with pytest.raises(InvalidInputError, match="missing"):
        plot_auc_curves(t)
    with pytest.raises(InvalidInputError, match="non-empty"):
        plot_power_curves(t.iloc[:0].assign(delta_acc=[]))
