"""The per-data-set results table of a paper (issue 28, item 1): bold = the row's best, the
dagger = Holm-adjusted corrected resampled t-tests against it (computed here from Nadeau &
Bengio 2003 with scipy.stats.t, not by the package), footer ranks = Demšar (2006) Table 6,
and the LaTeX compiles with pdflatex."""
from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from _demsar_tables import AUC_PAPER_RANKING, DATASETS, NAMES
from outperform.data import load_demsar_table6
from outperform.report import results_table, validate_output

K, N_TASKS, FOLDS, N_TRAIN, N_TEST = 6, 16, 10, 900, 100


def sixteen_by_six(seed: int = 28) -> pd.DataFrame:
    """16 data sets x 6 methods x 10 folds of accuracy, methods 0.6 points apart on average."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.65, 0.9, N_TASKS)[:, None, None]
    effect = (0.006 * np.arange(K))[None, :, None] + rng.normal(0, 0.01, (N_TASKS, K, 1))
    fold = rng.normal(0, 0.01, (N_TASKS, 1, FOLDS))          # shared by the methods of a task
    acc = base + effect + fold + rng.normal(0, 0.015, (N_TASKS, K, FOLDS))
    t, m, f = np.meshgrid(np.arange(N_TASKS), np.arange(K), np.arange(FOLDS), indexing="ij")
    return pd.DataFrame({"task": [f"set{i + 1:02d}" for i in t.ravel()],
                         "model": [f"M{j + 1}" for j in m.ravel()], "fold": f.ravel(),
                         "n_train": N_TRAIN, "n_test": N_TEST, "accuracy": acc.ravel()})


def expected_marks(frame: pd.DataFrame, higher_is_better: bool = True, alpha: float = 0.05):
    """(best, worse) of each (task, model), computed independently of the package.

    Nadeau & Bengio (2003), corrected resampled t-test: with d_i the n fold differences,
    t = mean(d) / sqrt((1/n + n_test/n_train) var(d)), Student t with n - 1 df, two-sided;
    Holm (1979) step-down over the k - 1 methods compared with the row's best.
    """
    metric = "accuracy" if "accuracy" in frame else "error"
    cube = (frame.sort_values(["task", "model", "fold"])[metric].to_numpy()
            .reshape(N_TASKS, K, FOLDS))
    means = cube.mean(axis=2)
    signed = means if higher_is_better else -means
    best = signed == signed.max(axis=1, keepdims=True)
    worse = np.zeros_like(best)
    for i in range(N_TASKS):
        b = int(np.argmax(signed[i]))
        others = [j for j in range(K) if j != b]
        p = []
        for j in others:
            d = cube[i, b] - cube[i, j]
            t = d.mean() / np.sqrt((1 / FOLDS + N_TEST / N_TRAIN) * d.var(ddof=1))
            p.append(2 * stats.t.sf(abs(t), FOLDS - 1))
        order = np.argsort(p)
        adjusted = np.empty(len(p))
        running = 0.0
        for rank, idx in enumerate(order):
            running = max(running, min(1.0, (len(p) - rank) * p[idx]))
            adjusted[idx] = running
        for j, a in zip(others, adjusted):
            worse[i, j] = a < alpha
    return best, worse


def parse_latex_body(tex: str, n_rows: int):
    """(bold, dagger) of each body cell of the LaTeX table: the rows after the first \\midrule."""
    lines = tex.splitlines()
    start = lines.index("\\midrule", lines.index("\\toprule")) + 1
    body = lines[start:start + n_rows]
    cells = [line.removesuffix(" \\\\").split(" & ")[1:] for line in body]
    bold = np.array([["\\textbf{" in c or "\\bfseries" in c for c in row] for row in cells])
    dagger = np.array([["\\dagger" in c for c in row] for row in cells])
    return bold, dagger


@pytest.fixture(scope="module")
def frame():
    return sixteen_by_six()


def test_bold_is_the_row_maximum_and_marks_are_holm_corrected_t_tests(frame):
    tex = results_table(frame)
    bold, dagger = parse_latex_body(tex, N_TASKS)
    best, worse = expected_marks(frame)
    assert bold.shape == (N_TASKS, K)
    np.testing.assert_array_equal(bold, best)
    np.testing.assert_array_equal(dagger, worse)
    assert 0 < worse.sum() < N_TASKS * (K - 1)      # the marks discriminate
    assert "corrected resampled t-test (Nadeau \\& Bengio 2003)" in tex
    assert "Holm-adjusted" in tex and "\\usepackage{booktabs}" in tex.splitlines()[0]


def test_a_loss_puts_the_minimum_in_bold_with_the_same_marks(frame):
    loss = frame.assign(error=1 - frame["accuracy"]).drop(columns="accuracy")
    tex = results_table(loss)                  # "error": lower is better, by its name
    bold, dagger = parse_latex_body(tex, N_TASKS)
    best, worse = expected_marks(loss, higher_is_better=False)
    np.testing.assert_array_equal(bold, best)
    np.testing.assert_array_equal(dagger, worse)
    # the same fold differences, negated: the same tests as on the accuracies
    np.testing.assert_array_equal(worse, expected_marks(frame)[1])
    assert "lower is better" in tex


def test_json_carries_the_same_decisions_and_validates(frame):
    import json

    data = validate_output(json.loads(results_table(frame, format="json", control="M1")))
    best, worse = expected_marks(frame)
    got = np.array([[c["worse"] for c in row] for row in data["cells"]])
    np.testing.assert_array_equal(got, worse)
    np.testing.assert_array_equal(np.array([[c["best"] for c in row] for row in data["cells"]]),
                                  best)
    assert data["rho"] == pytest.approx([N_TEST / (N_TRAIN + N_TEST)] * N_TASKS)
    # W/T/L of each method against M1: wins are the data sets where its mean is higher
    cube = frame.sort_values(["task", "model", "fold"])["accuracy"].to_numpy().reshape(
        N_TASKS, K, FOLDS).mean(axis=2)
    wins = (cube[:, 1:] > cube[:, [0]]).sum(axis=0)
    assert [data["wins_ties_losses"][f"M{j + 2}"][0] for j in range(K - 1)] == wins.tolist()


def _compile(tmp_path, tex: str, packages: str) -> subprocess.CompletedProcess:
    doc = (f"\\documentclass{{article}}\n\\usepackage[margin=2cm]{{geometry}}\n{packages}\n"
           f"\\begin{{document}}\n{tex}\\end{{document}}\n")
    (tmp_path / "table.tex").write_text(doc, encoding="utf-8")
    return subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                           "table.tex"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
@pytest.mark.parametrize("options", [{}, {"transpose": True, "ranks": True, "control": "M1"},
                                     {"siunitx": True, "control": "M1"},
                                     {"names": True, "control": "k_nn & 50% #1"}],
                         ids=["booktabs", "transposed-ranks", "siunitx", "special-names"])
def test_the_latex_compiles(frame, tmp_path, options):
    options = dict(options)
    if options.pop("names", False):     # LaTeX's special characters in names are escaped
        frame = frame.replace({"model": {"M1": "k_nn & 50% #1", "M2": "a^b {x} ~y $z"},
                               "task": {"set01": "data_set \\ 1"}})
    packages = "\\usepackage{booktabs}"
    if options.get("siunitx"):
        found = subprocess.run(["kpsewhich", "siunitx.sty"], capture_output=True, text=True)
        if not found.stdout.strip():
            pytest.skip("siunitx is not installed (texlive-science)")
        packages += "\n\\usepackage{siunitx}"
    run = _compile(tmp_path, results_table(frame, **options), packages)
    assert run.returncode == 0, run.stdout[-3000:]
    assert (tmp_path / "table.pdf").stat().st_size > 1000
    assert "Undefined control sequence" not in run.stdout


# -- Demšar (2006), Table 6: one AUC per cell --------------------------------------------------

#: Demšar (2006), Table 6, last row "average rank" (papers/demsar2006_statistical_comparisons.txt,
#: p. 13): C4.5 3.143, C4.5+m 2.000, C4.5+cf 2.893, C4.5+m+cf 1.964; and §3.2.4: F_F = 3.69.
PAPER_RANKS = ("3.143", "2.000", "2.893", "1.964")


def test_demsar_table6_bold_best_no_marks_and_the_paper_ranks():
    tex = results_table(load_demsar_table6(), ranks=True)
    bold, dagger = parse_latex_body(tex, len(DATASETS))
    np.testing.assert_array_equal(
        bold, AUC_PAPER_RANKING == AUC_PAPER_RANKING.max(axis=1, keepdims=True))
    assert not dagger.any()
    assert "No significance marks: one value per cell" in tex
    assert "Average rank & " + " & ".join(PAPER_RANKS) + " \\\\" in tex
    assert "$F_F(3, 39) = 3.69$" in tex
    # the ranks in parentheses are the paper's, e.g. iris: 1, 2.5, 4, 2.5
    iris = next(line for line in tex.splitlines() if line.startswith("iris &"))
    assert [r for r in re.findall(r"\((\d(?:\.5)?)\)", iris)] == ["1", "2.5", "4", "2.5"]


def test_demsar_markdown_and_html_show_the_same_table():
    md = results_table(load_demsar_table6(), format="markdown")
    assert "| mushroom | **1.000** | **1.000** | **1.000** | **1.000** |" in md
    assert "| *Average rank* | " + " | ".join(PAPER_RANKS) + " |" in md
    html = results_table(load_demsar_table6(), format="html")
    assert html.count("<strong>") == int((AUC_PAPER_RANKING == AUC_PAPER_RANKING.max(
        axis=1, keepdims=True)).sum())
    assert "<sup>" not in html and "<caption>" in html


def test_columns_transpose_caption_label_decimals():
    tex = results_table(load_demsar_table6(), columns=["C4.5+m+cf", "C4.5"], transpose=True,
                        caption="AUC of two C4.5 variants.", label="tab:auc", decimals=2)
    lines = tex.splitlines()
    assert "\\label{tab:auc}" in lines
    assert any(line.startswith("\\caption{AUC of two C4.5 variants. Bold:") for line in lines)
    header = lines[lines.index("\\toprule") + 1]
    assert header.startswith("Method & adult (sample) & ") and header.endswith(
        "& Average rank \\\\")
    row = next(line for line in lines if line.startswith("C4.5+m+cf &"))
    assert row.split(" & ")[1] == "\\textbf{0.80}"          # 0.798 to 2 decimals, the best
    assert "Wilcoxon signed-rank" in tex                    # two methods: Wilcoxon's test
    assert NAMES[0] in tex


def test_sd_digits_round_each_cell_at_its_sd(frame):
    md = results_table(frame, sd_digits=1, format="markdown", columns=["M1", "M2"])
    cube = frame.sort_values(["task", "model", "fold"]).set_index(["task", "model"])["accuracy"]
    for task in ("set01", "set02", "set03"):
        x = cube.loc[(task, "M1")].to_numpy()
        sd = x.std(ddof=1)
        d = -int(np.floor(np.log10(sd)))          # one significant digit of the sd
        line = next(row for row in md.splitlines() if row.startswith(f"| {task} |"))
        cell = line.split(" | ")[1].strip("*†")
        assert cell == f"{round(x.mean(), d):.{d}f} ± {round(sd, d):.{d}f}", (line, sd)
