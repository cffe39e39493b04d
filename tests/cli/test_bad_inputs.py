"""A corpus of bad or odd inputs run through the command line (issue 12, "Trust end to end").

Each case asserts the exit code (1 bad input, 2 usage error, 0 for odd input that must work),
that no traceback reaches the user, and that the message names the problem. Exit code 3 and
the traceback file are tested in ``tests/cli/test_errors.py``.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app
from outperform.data import load_demsar_table6

runner = CliRunner()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The inputs of the corpus, by placeholder name (``{t6}`` in a case's arguments)."""
    d = tmp_path_factory.mktemp("inputs")
    rng = np.random.default_rng(0)
    paths = {"dir": d}

    def put(name, text=None, data=None, frame=None, key=None):
        path = d / name
        if frame is not None:
            frame.to_csv(path, index=False)
        elif data is not None:
            path.write_bytes(data)
        elif text is not None:
            path.write_text(text)
        else:
            path.mkdir()
        paths[key or name.replace(".", "_")] = path
        return path

    put("t6.csv", frame=load_demsar_table6().frame, key="t6")  # Demšar (2006) Table 6: 4 x 14
    folds = [{"task": "t", "model": m, "run": r, "fold": f, "accuracy": mu + rng.normal(0, .02)}
             for m, mu in (("A", .80), ("B", .78), ("C", .75)) for r in range(2)
             for f in range(5)]
    put("q2.csv", frame=pd.DataFrame(folds), key="q2")
    y = rng.integers(0, 2, 200)
    flip = {m: np.where(rng.random(200) < p, 1 - y, y) for m, p in (("A", .1), ("B", .2),
                                                                       ("C", .3))}
    put("preds.csv", frame=pd.DataFrame({"y_true": y, **flip}), key="preds")
    put("empty.csv", text="")
    put("header_only.csv", text="task,model,score\n")
    put("blank_lines.csv", text="\n\n\n")
    put("utf16.csv", data="task,model,score\nt1,A,0.5\n".encode("utf-16"))
    put("binary.csv", data=bytes(range(256)) * 4)
    put("csv_named.parquet", text=(d / "t6.csv").read_text())
    put("folder.csv")
    put("table.xlsx", text="not really a spreadsheet")
    put("one_row.csv", text="task,model,score\nt1,A,0.5\n")
    put("one_model.csv", text="task,model,score\nt1,A,0.5\nt2,A,0.6\nt3,A,0.7\n")
    # An empty cell is a missing result, analysed (tests/stats/test_incomplete.py); inf is an error.
    put("inf_score.csv", text="task,A,B,C\nt1,0.5,0.6,0.7\nt2,inf,0.6,0.7\nt3,0.5,0.4,0.7\n")
    put("text_score.csv", text="task,A,B,C\nt1,0.5,0.6,0.7\nt2,good,0.6,0.7\nt3,0.5,0.4,0.7\n")
    put("dup_rows.csv", text="task,model,score\na,A,1\na,A,2\n")
    put("existing_file.txt", text="I am a file, not a folder")
    put("cd.png")  # a folder with a figure's name
    return paths


# (id, arguments with {placeholders}, exit code, keywords the output must contain)
USAGE = [
    ("no-file", "compare", 2, ["Missing argument"]),
    ("alpha-not-a-number", "compare {t6} --alpha abc", 2, ["--alpha"]),
    ("unknown-output-format", "compare {t6} --format pdf", 2, ["--format"]),
    ("unknown-command", "comapre {t6}", 2, ["No such command", "compare"]),
    ("unknown-option", "compare {t6} --contrl C4.5", 2, ["--contrl"]),
    ("debug-after-the-command", "compare {t6} --debug", 2, ["--debug"]),
    ("simulate-without-name", "simulate", 2, ["Missing argument"]),
    ("n-jobs-not-an-integer", "benchmark --n-jobs many", 2, ["--n-jobs"]),
]

OPTIONS = [
    ("alpha-above-1", "compare {t6} --alpha 2", ["alpha", "(0, 1)"]),
    ("alpha-zero", "compare {t6} --alpha 0", ["alpha"]),
    ("alpha-negative", "compare {t6} --alpha -0.1", ["alpha"]),
    ("threshold-above-1", "compare {t6} --bayesian --threshold 3", ["threshold"]),
    ("threshold-one-q2", "compare {q2} --threshold 1", ["threshold"]),
    ("rope-negative-q3", "compare {t6} --bayesian --rope -1", ["rope"]),
    ("rope-negative-q2", "compare {q2} --rope -1", ["rope"]),
    ("rho-above-1", "compare {q2} --rho 2", ["rho"]),
    ("prior-negative", "compare {t6} --bayesian --prior -1", ["prior"]),
    ("unknown-posthoc", "compare {t6} --posthoc tukey", ["posthoc", "nemenyi"]),
    ("control-posthoc-without-control", "compare {t6} --posthoc bonferroni-dunn", ["control"]),
    ("unknown-control", "compare {t6} --control C5.0", ["C5.0", "C4.5+m"]),
    ("unknown-metric", "compare {t6} --metric f1", ["f1"]),
    ("hierarchical-with-four-models", "compare {t6} --hierarchical", ["two"]),
    ("q1-unknown-control", "compare-predictions {preds} --control Z", ["'Z'"]),
    ("q1-unknown-loss", "compare-predictions {preds} --loss hinge", ["hinge", "zero-one"]),
    ("q1-missing-labels", "compare-predictions {preds} --y-true label", ["'label'", "--y-true"]),
    ("q1-missing-group", "compare-predictions {preds} --group doc", ["'doc'", "'y_true'"]),
    ("q1-control-and-reference-differ",
     "compare-predictions {preds} --control A --reference B", ["--control", "--reference"]),
    ("q1-alpha", "compare-predictions {preds} --alpha 1.5", ["alpha"]),
    ("q1-threshold", "compare-predictions {preds} --threshold 1.2", ["threshold"]),
    ("q1-rope", "compare-predictions {preds} --rope -0.1", ["rope"]),
    ("report-pdf-format", "report {t6} --formats pdf --out {dir}/r1", ["pdf", "html, md"]),
    ("report-no-format", "report {t6} --formats , --out {dir}/r2", ["no format"]),
    ("report-out-is-a-file", "report {t6} --out {existing_file_txt}", ["existing file"]),
    ("report-unknown-control", "report {t6} --control C5.0 --out {dir}/r3", ["C5.0"]),
    ("plot-unknown-suffix", "compare {t6} --plot {dir}/cd.jpg", ["cd.jpg", ".png"]),
    ("plot-no-suffix", "compare {t6} --plot {dir}/cd", [".svg"]),
    ("plot-under-a-file", "compare {t6} --plot {existing_file_txt}/cd.png",
     ["not a writable folder"]),
    ("plot-is-a-folder", "compare {t6} --plot {cd_png}", ["is a folder"]),
    ("simulate-module-attribute", "simulate plot", ["'plot'", "lacoste-fig3"]),
    ("simulate-registry-name", "simulate FIGURES", ["'FIGURES'", "demsar-replicability"]),
    ("simulate-private-name", "simulate _size", ["'_size'", "corani-fig2a"]),
    ("simulate-figure-suffix", "simulate demsar-replicability --out {dir}/f.gif", [".png"]),
    ("simulate-table-suffix", "simulate demsar-replicability --table {dir}/t.xlsx", [".csv"]),
    ("benchmark-unknown-model", "benchmark --models nb,nonsense --datasets iris", ["nonsense"]),
    ("benchmark-unknown-dataset", "benchmark --models nb --datasets mnist", ["mnist"]),
    ("benchmark-bad-design", "benchmark --models nb --datasets iris --cv 3", ["'3'", "RxK"]),
]

# File decoding belongs to data/io.py (its own corpus); here only: exit 1 and no traceback.
FILES = [
    ("missing-file", "compare {dir}/nowhere.csv"),
    ("empty-file", "compare {empty_csv}"),
    ("header-only", "compare {header_only_csv}"),
    ("blank-lines", "compare {blank_lines_csv}"),
    ("utf16-bytes", "compare {utf16_csv}"),
    ("binary-bytes", "compare {binary_csv}"),
    ("csv-named-parquet", "compare {csv_named_parquet}"),
    ("folder", "compare {folder_csv}"),
    ("unknown-suffix", "compare {table_xlsx}"),
    ("one-row", "compare {one_row_csv}"),
    ("one-model", "compare {one_model_csv}"),
    ("inf-score", "compare {inf_score_csv}"),
    ("text-score", "compare {text_score_csv}"),
    ("duplicate-rows", "compare {dup_rows_csv}"),
    ("q1-empty-file", "compare-predictions {empty_csv}"),
    ("report-empty-file", "report {empty_csv} --out {dir}/r4"),
]


def run(args: str, files, **kwargs):
    """Invoke the CLI; assert that no exception escaped and no traceback was printed."""
    argv = [a.format(**{k: str(v) for k, v in files.items()}) for a in args.split()]
    res = runner.invoke(app, argv, **kwargs)
    # CliRunner catches an escaped exception (a user would see its traceback): none may escape.
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output and "Traceback" not in (res.stderr or "")
    return res


def _flat(text: str) -> str:
    # Rich wraps long messages and help in boxes: compare the words, not the layout.
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize("args, code, words", [c[1:] for c in USAGE], ids=[c[0] for c in USAGE])
def test_usage_mistake_exits_2_with_a_message(files, args, code, words):
    res = run(args, files)
    assert res.exit_code == code, res.output
    assert all(w in _flat(res.output) for w in words), res.output


@pytest.mark.parametrize("args, words", [c[1:] for c in OPTIONS], ids=[c[0] for c in OPTIONS])
def test_bad_option_exits_1_with_one_line_naming_it(files, args, words):
    res = run(args, files)
    assert res.exit_code == 1, res.output
    assert "error:" in res.stderr
    assert all(w in res.stderr for w in words), res.stderr


@pytest.mark.parametrize("args", [c[1] for c in FILES], ids=[c[0] for c in FILES])
def test_bad_file_exits_1_without_traceback(files, args):
    res = run(args, files)
    assert res.exit_code == 1, res.output
    assert "error:" in res.stderr


def test_control_with_plot_draws_the_bonferroni_dunn_diagram(files, tmp_path):
    """Demšar (2006) Figure 1(b): with a control, the diagram is Bonferroni–Dunn's (not Holm's,
    which has no single critical difference to draw)."""
    res = run(f"compare {{t6}} --control C4.5 --plot {tmp_path}/cd.svg", files)
    assert res.exit_code == 0, res.output
    assert "bonferroni-dunn" in res.stderr
    assert (tmp_path / "cd.svg").read_text().lstrip().startswith("<?xml")


def test_plot_of_a_table_without_post_hoc_says_so(files, tmp_path):
    res = run(f"compare {{q2}} --plot {tmp_path}/cd.png", files)
    assert res.exit_code == 0, res.output
    assert "no critical-difference diagram" in _flat(res.stderr)
    assert not (tmp_path / "cd.png").exists()


def test_reference_is_a_deprecated_alias_of_control(files):
    new = run("compare-predictions {preds} --control A --format json", files)
    old = run("compare-predictions {preds} --reference A --format json", files)
    assert new.exit_code == old.exit_code == 0, old.output
    assert "deprecated" in old.stderr and "--control" in old.stderr
    assert json.loads(old.stdout)["control"] == json.loads(new.stdout)["control"] == "A"
    assert json.loads(old.stdout)["tests"].keys() == json.loads(new.stdout)["tests"].keys()


def test_help_keeps_bracketed_text_and_shows_no_bool_type(files):
    res = run("compare --help", files)
    assert res.exit_code == 0
    assert "task, model, [run, fold], score" in _flat(res.output)


@pytest.mark.parametrize("command", ["", "compare", "compare-predictions", "benchmark",
                                     "report", "simulate", "demo", "aggregate", "plan",
                                     "plan mcnemar", "plan corrected-t"])
def test_help_shows_no_type_for_flags(files, command):
    res = run(f"{command} --help", files)
    assert res.exit_code == 0, res.output
    assert "<bool>" not in res.output
    assert "--help" in res.output


def test_compare_predictions_help_names_control_not_reference(files):
    out = run("compare-predictions --help", files).output
    assert "--control" in out and "--reference" not in out


def test_simulate_help_lists_every_study_of_the_registry(files):
    from outperform.simulate import FIGURES

    out = _flat(run("simulate --help", files).output)
    assert all(name in out for name in FIGURES), out
