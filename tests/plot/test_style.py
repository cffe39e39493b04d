"""One look for every plot (plot/_style.py, issue 28 item 4): widths for a paper's column and
page, text sizes for a 10 pt paper at 100 % scale, colours only from the Okabe–Ito palette of
the style module, and no plot module that names a colour itself."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex, to_rgba  # noqa: E402

import outperform.plot as plot  # noqa: E402
from _paths import ROOT  # noqa: E402
from functools import cache  # noqa: E402

from _report_cases import report  # noqa: E402
from outperform._validation import InvalidInputError  # noqa: E402
from outperform.plot import _style  # noqa: E402

PLOT_DIR = ROOT / "src" / "outperform" / "plot"
PLOTS = [n for n in plot.__all__ if n != "save_figure"]


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_okabe_ito_palette():
    # Okabe & Ito (2008), "Color Universal Design", the set of colours unambiguous to both
    # colour-blind and non-colour-blind people (RGB 0-255 as published):
    published = {"black": (0, 0, 0), "orange": (230, 159, 0), "sky blue": (86, 180, 233),
                 "bluish green": (0, 158, 115), "yellow": (240, 228, 66),
                 "blue": (0, 114, 178), "vermillion": (213, 94, 0),
                 "reddish purple": (204, 121, 167)}
    for name, rgb in published.items():
        assert to_rgba(_style.OKABE_ITO[name])[:3] == pytest.approx(np.array(rgb) / 255)
    assert set(_style.PALETTE) <= set(_style.OKABE_ITO.values())
    assert len(set(_style.PALETTE)) == len(_style.PALETTE) == 7


def test_every_public_plot_takes_width_and_is_styled():
    for name in PLOTS:
        func = getattr(plot, name)
        assert "width" in inspect.signature(func).parameters, name
        assert getattr(func, "__wrapped__", None) is not None, f"{name} is not @styled"


def test_width_names_and_errors():
    assert _style.inches("column") == 3.3 and _style.inches("page") == 7.0
    for bad in ("colum", 0, -2, True, "7in"):
        with pytest.raises(InvalidInputError, match="width must be"):
            _style.inches(bad)


def test_style_leaves_global_state_alone():
    before = dict(matplotlib.rcParams)
    plot.qq_plot(np.random.default_rng(0).normal(size=30), width="column")
    assert dict(matplotlib.rcParams) == before


# -- one builder per plot: the call with its smallest input -----------------------------------

@cache
def _t6_nemenyi():
    return report("table6_005").posthoc["nemenyi"]


@cache
def _bayes_ttest():
    from outperform.bayes import bayesian_ttest

    rng = np.random.default_rng(1)
    return bayesian_ttest(rng.normal(0.1, 1, 50), rng.normal(0, 1, 50), rope=0.1)


@cache
def _runs():
    from outperform.compare import compare_runs

    rng = np.random.default_rng(0)
    frame = pd.DataFrame([{"task": f"t{t}", "model": m, "run": r,
                           "accuracy": 0.6 + 0.05 * i + rng.normal(0, 0.05)}
                          for t in range(5) for i, m in enumerate("abc") for r in range(4)])
    return compare_runs(frame, normalize="min-max", n_resamples=50, random_state=0)


@cache
def _corr_ttest():
    from outperform.stats import corrected_resampled_ttest

    rng = np.random.default_rng(2)
    a = rng.normal(0.8, 0.02, 30)
    b = a - 0.01 + rng.normal(0, 0.01, 30)
    return a - b, corrected_resampled_ttest(a, b, rho=0.1)


@cache
def _sign():
    from outperform.bayes import bayesian_sign_test

    b = np.random.default_rng(0).normal(0.8, 0.05, 20)
    return bayesian_sign_test(b + 0.03, b, rope=0.01, n_samples=1000, random_state=0)


@cache
def _poisson():
    from outperform.bayes import poisson_binomial_test

    return poisson_binomial_test([3, 10, 4, 0, 12], [9, 14, 4, 0, 30])


@cache
def _hier():
    from outperform.bayes import hierarchical_mcnemar

    return hierarchical_mcnemar([63, 159, 175, 180, 202], [66, 198, 149, 167, 167], n_samples=0)


@cache
def _battles():
    from outperform.compare import bradley_terry

    rng = np.random.default_rng(3)
    rows = [dict(model_a=f"m{a}", model_b=f"m{b}", winner=rng.choice(["model_a", "model_b"]))
            for _ in range(60) for a in range(4) for b in range(a + 1, 4)]
    return bradley_terry(pd.DataFrame(rows))


BUILDERS = {
    "cd_diagram": lambda: (np.array([3.143, 2.0, 2.893, 1.964]), ["C4.5", "C4.5+m",
                           "C4.5+cf", "C4.5+m+cf"]),
    "cd_diagram_from_result": lambda: (_t6_nemenyi(),),
    "plot_pairwise_heatmap": lambda: (_t6_nemenyi(),),
    "plot_posterior": lambda: (_bayes_ttest(),),
    "plot_differences": lambda: tuple(np.random.default_rng(0).normal(size=(2, 40))),
    "qq_plot": lambda: (np.random.default_rng(0).normal(size=40),),
    "plot_cv_differences": _corr_ttest,
    "plot_simplex": lambda: (_sign(),),
    "plot_poisson_binomial": lambda: (_poisson(),),
    "plot_ab_posterior": lambda: (_hier(),),
    "plot_phi_next": lambda: (_hier(),),
    "plot_shrinkage": lambda: (_hier(),),
    "plot_interval_estimates": lambda: (_runs(),),
    "plot_performance_profiles": lambda: (_runs(),),
    "plot_probability_of_improvement": lambda: (_runs(),),
    "plot_run_aggregates": lambda: (_runs(),),
    "plot_rank_sets": lambda: (report("q1_three").leaderboard,),
    "plot_comparison_matrix": lambda: (report("q1_three").leaderboard,),
    "plot_bradley_terry": lambda: (_battles(),),
}


def _figure(name, width):
    out = getattr(plot, name)(*BUILDERS[name](), width=width)
    return (out.figure if hasattr(out, "figure") else out[0].figure
            if isinstance(out, (list, tuple, np.ndarray)) else out)


#: plots whose drawing takes seconds (densities of the hierarchical posterior)
SLOW = {"plot_phi_next", "plot_ab_posterior"}


@pytest.mark.parametrize("width, inches", [("column", 3.3), ("page", 7.0), (5.0, 5.0)])
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n
                                  for n in sorted(BUILDERS)])
def test_figure_has_the_requested_width_and_fonts_in_range(name, width, inches):
    fig = _figure(name, width)
    assert fig.get_size_inches()[0] == pytest.approx(inches)
    low, high = _style.FONT_RANGE
    sizes = {round(t.get_fontsize(), 2) for t in fig.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip()}
    assert sizes and min(sizes) >= low - 1e-9 and max(sizes) <= high + 1e-9, (name, sizes)


def _colours(fig) -> set[str]:
    """Hex colours of the lines, markers and patches drawn (not of the axes frame)."""
    out = set()
    for artist in fig.findobj():
        if isinstance(artist, matplotlib.lines.Line2D) and artist.get_visible():
            out |= {to_hex(artist.get_color()), to_hex(artist.get_markerfacecolor())}
        elif isinstance(artist, matplotlib.patches.Rectangle) and artist.get_visible() \
                and artist.get_facecolor()[3] > 0 and artist.get_width() < 1e6 \
                and artist.axes is not None and artist is not artist.axes.patch:
            out.add(to_hex(artist.get_facecolor()))
    return out


@pytest.mark.parametrize("name", ["plot_posterior", "plot_poisson_binomial",
                                  "plot_interval_estimates", "plot_performance_profiles",
                                  "plot_rank_sets", "plot_cv_differences", "plot_bradley_terry",
                                  "cd_diagram_from_result", "plot_shrinkage"])
def test_colours_come_from_the_palette_or_greys(name):
    allowed = {to_hex(c) for c in (*_style.PALETTE, _style.INK, _style.PAPER)}
    fig = _figure(name, "column")
    for colour in _colours(fig):
        r, g, b, _ = to_rgba(colour)
        assert colour in allowed or r == g == b, (name, colour)    # palette, or a grey


COLOUR_KEYWORDS = {"color", "colors", "c", "edgecolor", "facecolor", "ecolor", "mec", "mfc",
                   "markeredgecolor", "markerfacecolor", "cmap"}


def _hard_coded_colours(path: Path) -> list[str]:
    """Colours written as literals in a module: string values of colour keywords, hex colours,
    matplotlib's tab:/CN names and colour-map look-ups."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.keyword) and node.arg in COLOUR_KEYWORDS \
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) \
                and node.value.value != "none":
            found.append(f"{node.arg}={node.value.value!r} (line {node.lineno})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            v = node.value
            if v.startswith("tab:") or (v.startswith("#") and len(v) in (4, 7, 9)
                                        and all(ch in "0123456789abcdefABCDEF" for ch in v[1:])) \
                    or (len(v) == 2 and v[0] == "C" and v[1].isdigit()):
                found.append(f"{v!r} (line {node.lineno})")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "colormaps":
            found.append(f"colormaps[...] (line {node.lineno})")
    return found


@pytest.mark.parametrize("path", sorted(p for p in PLOT_DIR.glob("_*.py")
                                        if p.name != "_style.py"), ids=lambda p: p.name)
def test_no_plot_module_hard_codes_a_colour(path):
    assert not _hard_coded_colours(path), _hard_coded_colours(path)


def test_the_colour_check_finds_what_it_looks_for(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('ax.plot(x, color="tab:blue")\nax.bar(x, color="0.5")\n'
                   'cmap = matplotlib.colormaps["tab10"]\nc = "#E69F00"\n', encoding="utf-8")
    found = _hard_coded_colours(bad)
    assert {int(f.rsplit("line ", 1)[1].rstrip(")")) for f in found} == {1, 2, 3, 4}
    bad.write_text('ax.bar(x, edgecolor="none", color=style.ACCENT)\n', encoding="utf-8")
    assert _hard_coded_colours(bad) == []
