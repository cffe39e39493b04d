"""Critical-difference diagrams (Demšar 2006, Figure 1): drawing, layout and saving."""
import csv
from importlib.resources import files
from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from outperform._validation import InvalidInputError, TooFewError
from outperform.plot import cd_diagram, cd_diagram_from_result, save_figure
from outperform.results import PairwiseResult
from outperform.stats import nonsignificant_groups

NAMES = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
RANKS = np.array([3.143, 2.000, 2.893, 1.964])   # Demšar (2006) Table 6
STEMS = ["RandomForestClassifier", "GradientBoostingClassifier", "LogisticRegression",
         "KNeighborsClassifier", "HistGradientBoosting", "SVC"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def long_names(k):
    return [f"{STEMS[i % 6]}(n_estimators={100 * (i + 1)}, max_depth={i % 7}, seed={i})"
            if i % 3 == 0 else f"{STEMS[i % 6]}_variant_{i}" for i in range(k)]


def random_ranks(k, seed=0):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(30, k)) + np.linspace(0, 2, k)
    return (np.argsort(np.argsort(-scores, axis=1), axis=1) + 1).mean(axis=0)


def name_texts(ax):
    return [t for t in ax.texts if t.get_gid() == "method-name"]


def lines_with(ax, gid):
    return [line for line in ax.lines if line.get_gid() == gid]


def assert_names_readable(ax):
    """No two method names overlap and every name lies inside the figure."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in name_texts(ax)]
    assert boxes
    fig_box = fig.bbox
    for box in boxes:
        assert box.x0 >= fig_box.x0 - 0.5 and box.x1 <= fig_box.x1 + 0.5
        assert box.y0 >= fig_box.y0 - 0.5 and box.y1 <= fig_box.y1 + 0.5
    for a, b in combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)


@pytest.mark.parametrize("k", [2, 4, 20, 60])
def test_draws_long_names_without_overlap(k):
    ranks = random_ranks(k)
    cd = 0.35 * k   # about the Nemenyi CD for N = 30 at these k
    ax = cd_diagram(ranks, long_names(k), critical_difference=cd, title=f"k = {k}")
    assert len(name_texts(ax)) == k
    assert_names_readable(ax)
    # Every line of a wrapped name is at most 40 characters and nothing is lost.
    shown = [t.get_text().split("\n") for t in name_texts(ax)]
    assert max(len(line) for lines in shown for line in lines) <= 40
    assert ({"".join(lines).replace(" ", "") for lines in shown}
            == {name.replace(" ", "") for name in long_names(k)})


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"),
                                           (".pdf", b"%PDF")])
def test_saves_png_svg_pdf(suffix, magic, tmp_path):
    ax = cd_diagram(random_ranks(12), long_names(12), critical_difference=3.0)
    path = save_figure(ax.figure, tmp_path / f"cd{suffix}", dpi=50)
    assert path.read_bytes()[:len(magic)] == magic


def test_figure_grows_with_the_number_of_methods():
    small = cd_diagram(random_ranks(4), long_names(4)).figure.get_size_inches()
    large = cd_diagram(random_ranks(40), long_names(40)).figure.get_size_inches()
    assert large[1] > 3 * small[1]


def test_demsar_figure_1a_bars_and_orientation():
    ax = cd_diagram(RANKS, NAMES, critical_difference=1.12)
    # Two bars: {C4.5+m+cf, C4.5+m, C4.5+cf} and {C4.5+cf, C4.5} (Demšar Figure 1(a)).
    bars = sorted((min(b.get_xdata()), max(b.get_xdata())) for b in lines_with(ax, "group-bar"))
    assert len(bars) == 2
    x = {n: line.get_xdata()[0] for n, line in zip(
        [t.get_text() for t in name_texts(ax)], lines_with(ax, "method-line"))}
    # Best (lowest) rank on the right, as in the paper; equal rank steps, equal distances.
    assert x["C4.5+m+cf"] > x["C4.5+m"] > x["C4.5+cf"] > x["C4.5"]
    step = (x["C4.5+m"] - x["C4.5"]) / (3.143 - 2.000)
    assert (x["C4.5+m+cf"] - x["C4.5+cf"]) / (2.893 - 1.964) == pytest.approx(step)
    left, right = bars
    assert left[0] < x["C4.5"] and left[1] > x["C4.5+cf"] and left[1] < x["C4.5+m"]
    assert right[0] < x["C4.5+cf"] and right[1] > x["C4.5+m+cf"] and right[0] > x["C4.5"]
    # The CD ruler is drawn with its value.
    assert any(t.get_text() == "CD = 1.12" for t in ax.texts)

    flipped = cd_diagram(RANKS, NAMES, critical_difference=1.12, reverse=True)
    xr = {t.get_text(): line.get_xdata()[0]
          for t, line in zip(name_texts(flipped), lines_with(flipped, "method-line"))}
    assert xr["C4.5+m+cf"] < xr["C4.5+m"] < xr["C4.5+cf"] < xr["C4.5"]


def test_alpha_005_one_bar():
    ax = cd_diagram(RANKS, NAMES, critical_difference=1.25)
    assert len(lines_with(ax, "group-bar")) == 1


@pytest.mark.parametrize("reverse", [False, True])
def test_method_lines_never_cross(reverse):
    ax = cd_diagram(random_ranks(25, seed=3), long_names(25), reverse=reverse)
    segments = [(line.get_xdata(), line.get_ydata()) for line in lines_with(ax, "method-line")]
    for (xa, ya), (xb, yb) in combinations(segments, 2):
        # The horizontal run of one line must not cross the vertical run of the other.
        for (xh, yh), (xv, yv) in (((xa, ya), (xb, yb)), ((xb, yb), (xa, ya))):
            lo, hi = sorted((xh[1], xh[2]))
            crosses = lo < xv[0] < hi and yv[0] < yh[1] < yv[1]
            assert not crosses


def test_groups_come_from_reject_when_given():
    # A Wilcoxon–Holm style decision that no CD reproduces: only the neighbours B, C differ.
    ranks = np.array([1.0, 2.0, 3.0, 4.0])
    reject = np.zeros((4, 4), bool)
    reject[1, 2] = reject[2, 1] = True
    ax = cd_diagram(ranks, list("ABCD"), reject=reject)
    assert len(lines_with(ax, "group-bar")) == len(nonsignificant_groups(ranks, reject)) == 2
    ax = cd_diagram(ranks, list("ABCD"), groups=[(0, 1, 2, 3)], reject=reject)
    assert len(lines_with(ax, "group-bar")) == 1
    ax = cd_diagram(ranks, list("ABCD"))
    assert lines_with(ax, "group-bar") == []


def test_demsar_figure_1b_labels_the_critical_difference():
    # Issue 12 item 8: the Bonferroni–Dunn form had no CD label. Demšar (2006) Table 5(b):
    # q_0.05 = 2.394 for k = 4, so CD = 2.394 sqrt(4 * 5 / (6 * 14)) = 1.168 on Table 6.
    cd = 2.394 * np.sqrt(4 * 5 / (6 * 14))
    ax = cd_diagram(RANKS, NAMES, critical_difference=cd, control="C4.5")
    assert [t.get_text() for t in ax.texts if t.get_text().startswith("CD")] == ["CD = 1.17"]


def test_demsar_figure_1b_control_interval():
    ax = cd_diagram(RANKS, NAMES, critical_difference=1.16, control="C4.5")
    (interval,) = lines_with(ax, "control-interval")
    x = {t.get_text(): line.get_xdata()[0]
         for t, line in zip(name_texts(ax), lines_with(ax, "method-line"))}
    step = (x["C4.5+m"] - x["C4.5"]) / (3.143 - 2.000)
    lo, hi = sorted(interval.get_xdata())
    # From rank 3.143 - 1.16 = 1.983 (C4.5+m+cf at 1.964 lies outside: significant, as in
    # Demšar's Bonferroni–Dunn result) to rank 4 (the end of the axis, 3.143 + 1.16 clipped).
    assert hi == pytest.approx(x["C4.5"] + (3.143 - 1.983) * step)
    assert lo == pytest.approx(x["C4.5"] - (4 - 3.143) * step)
    assert x["C4.5+m+cf"] > hi > x["C4.5+m"]
    bold = {t.get_text() for t in name_texts(ax) if t.get_fontweight() == "bold"}
    assert bold == {"C4.5"}
    assert lines_with(ax, "group-bar") == []


def test_highlight_sets_names_in_bold():
    ax = cd_diagram(RANKS, NAMES, highlight=["C4.5+m", 3])
    bold = {t.get_text() for t in name_texts(ax) if t.get_fontweight() == "bold"}
    assert bold == {"C4.5+m", "C4.5+m+cf"}


def test_draws_into_a_given_small_axes_without_overlap():
    fig, axes = plt.subplots(2, 1, figsize=(6, 5))
    ax = cd_diagram(random_ranks(12), long_names(12), critical_difference=3.0, ax=axes[0])
    assert ax is axes[0]
    assert_names_readable(ax)
    assert name_texts(ax)[0].get_fontsize() < 10   # shrunk to fit
    with pytest.warns(UserWarning, match="too small"):
        fig, tiny = plt.subplots(figsize=(1, 1))
        cd_diagram(random_ranks(30), long_names(30), ax=tiny)


def pairwise_result(control=None, cd=1.12, ranks=RANKS):
    reject = np.abs(RANKS[:, None] - RANKS) >= 1.12
    return PairwiseResult(method="Nemenyi", names=NAMES, statistic=np.zeros((4, 4)),
                          pvalue=np.ones((4, 4)), pvalue_adjusted=np.ones((4, 4)),
                          reject=reject, alpha=0.10, adjustment="nemenyi", control=control,
                          critical_difference=cd, average_ranks=ranks)


def test_from_result():
    ax = cd_diagram_from_result(pairwise_result(), title="Nemenyi")
    assert len(lines_with(ax, "group-bar")) == 2 and ax.get_title() == "Nemenyi"
    ax = cd_diagram_from_result(pairwise_result(control="C4.5", cd=1.16))
    assert len(lines_with(ax, "control-interval")) == 1
    fig, ax0 = plt.subplots(figsize=(6, 2.5))
    assert cd_diagram_from_result(pairwise_result(), ax=ax0, reverse=True) is ax0


def test_from_result_errors():
    with pytest.raises(InvalidInputError, match="no average ranks"):
        cd_diagram_from_result(pairwise_result(ranks=None))
    with pytest.raises(InvalidInputError, match="critical_difference"):
        cd_diagram_from_result(pairwise_result(control="C4.5", cd=None))


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(names=["a", "b"]), InvalidInputError, "one name per method"),
    (dict(names=["a", "a", "b", "c"]), InvalidInputError, "unique"),
    (dict(control="C5.0", critical_difference=1.0), InvalidInputError, "not one of"),
    (dict(control=7, critical_difference=1.0), InvalidInputError, "out of range"),
    (dict(control="C4.5"), InvalidInputError, "critical_difference"),
    (dict(critical_difference=-1.0), InvalidInputError, "positive"),
    (dict(groups=[(0, 9)]), InvalidInputError, "indices"),
    (dict(reject=np.ones((3, 3), bool)), InvalidInputError, "4 x 4"),
    (dict(average_ranks=[1.0], names=["a"]), TooFewError, "at least 2"),
    (dict(average_ranks=[1.0, np.nan, 2.0, 3.0]), InvalidInputError, "NaN"),
    (dict(fontsize=0), InvalidInputError, "fontsize"),
    (dict(wrap=0), InvalidInputError, "wrap"),
])
def test_bad_input(kwargs, error, message):
    args = dict(average_ranks=RANKS, names=NAMES) | kwargs
    with pytest.raises(error, match=message):
        cd_diagram(args.pop("average_ranks"), args.pop("names"), **args)


def test_save_figure_rejects_unknown_suffix(tmp_path):
    ax = cd_diagram(RANKS, NAMES)
    with pytest.raises(InvalidInputError, match=r"\.png, \.svg or \.pdf"):
        save_figure(ax, tmp_path / "cd.jpeg")
    assert save_figure(ax, tmp_path / "cd.PDF").exists()


def test_from_real_posthoc_results_on_table6():
    posthoc = pytest.importorskip("outperform.stats._posthoc")
    path = files("outperform.data") / "published" / "demsar2006_table6.csv"
    with path.open() as fh:
        rows = list(csv.reader(fh))[1:]
    scores = np.array([[float(v) for v in row[1:]] for row in rows])   # columns as NAMES
    ax = cd_diagram_from_result(posthoc.nemenyi(scores, alpha=0.10, names=NAMES))
    assert len(lines_with(ax, "group-bar")) == 2
    assert any(t.get_text() == "CD = 1.12" for t in ax.texts)
    ax = cd_diagram_from_result(posthoc.bonferroni_dunn(scores, control="C4.5", names=NAMES))
    assert len(lines_with(ax, "control-interval")) == 1
    ax = cd_diagram_from_result(posthoc.pairwise_wilcoxon(scores, names=NAMES))
    assert len(lines_with(ax, "group-bar")) == 2
    assert not any(t.get_text().startswith("CD") for t in ax.texts)


def _name_texts(ax):
    return sorted(t.get_text() for t in ax.texts if t.get_gid() == "method-name")


def test_cd_diagram_writes_the_compact_letters_of_the_report():
    # Demšar (2006) Table 6, Nemenyi at α = 0.10 (Figure 1(a)): C4.5+m+cf and C4.5+m differ
    # from C4.5, C4.5+cf differs from neither group; the letters are those of the report's
    # table (compact_letters, checked against R's multcompLetters in test_compact_letters).
    import matplotlib.pyplot as plt

    from outperform.compare import compare
    from outperform.data import load_demsar_table6
    from outperform.plot import cd_diagram_from_result

    rep = compare(load_demsar_table6().frame, alpha=0.10, posthoc="nemenyi")
    ax = cd_diagram_from_result(rep.posthoc["nemenyi"])
    expected = sorted(f"{row['model']} ({row['letters']})" for row in rep.summary)
    assert _name_texts(ax) == expected == ["C4.5 (b)", "C4.5+cf (ab)", "C4.5+m (a)",
                                           "C4.5+m+cf (a)"]
    plt.close(ax.figure)
    ax = cd_diagram_from_result(rep.posthoc["nemenyi"], letters=False)
    assert _name_texts(ax) == ["C4.5", "C4.5+cf", "C4.5+m", "C4.5+m+cf"]
    plt.close(ax.figure)


def test_cd_diagram_letters_argument():
    import matplotlib.pyplot as plt

    from outperform.plot import cd_diagram
    ax = cd_diagram([1.5, 2.5, 2.0], ["A", "B", "C"], letters={"A": "a", "B": "b", "C": "ab"})
    assert _name_texts(ax) == ["A (a)", "B (b)", "C (ab)"]
    plt.close(ax.figure)
    with pytest.raises(InvalidInputError, match="2 letters for 3"):
        cd_diagram([1.5, 2.5, 2.0], ["A", "B", "C"], letters=["a", "b"])
    with pytest.raises(InvalidInputError, match="no entry"):
        cd_diagram([1.5, 2.5, 2.0], ["A", "B", "C"], letters={"A": "a"})
