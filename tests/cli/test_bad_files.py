"""A corpus of odd and broken result files run through ``outperform compare``.

Each bad file must end with exit code 1, no traceback, and a message naming the problem;
each odd-but-valid file (a BOM, ';' with decimal commas, UTF-16, names such as 'NA') must
give exactly the Friedman statistic of the clean file.
"""
import codecs
import gzip
import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()


def _long(n_tasks=10, models=("A", "B", "C"), folds=2):
    rng = np.random.default_rng(0)
    return pd.DataFrame([{"task": f"t{t}", "model": m, "fold": f,
                          "score": round(rng.uniform(0.5, 1), 6)}
                         for t in range(n_tasks) for m in models for f in range(folds)])


def _wide(columns=("A", "B", "C"), n_tasks=8):
    rng = np.random.default_rng(1)
    wide = pd.DataFrame(rng.uniform(size=(n_tasks, len(columns))), columns=list(columns))
    wide.insert(0, "task", [f"t{i}" for i in range(n_tasks)])
    return wide


def _two_header_rows(p):
    """A wide table whose columns are (model, metric) pairs, written as pandas writes them."""
    wide = _wide(("A", "B")).set_index("task")
    wide.columns = pd.MultiIndex.from_product([["A", "B"], ["acc"]])
    pd.concat([wide, wide.rename(columns={"acc": "f1"})], axis=1).to_csv(p)


def _csv(text: str):
    return lambda p: p.write_text(text)


def _bytes(data: bytes):
    return lambda p: p.write_bytes(data)


def _late_bad_byte(p):
    p.write_bytes(_long(n_tasks=400).to_csv(index=False).encode() + "t0,\xc4,0,0.5\n".encode("cp1252"))


def _folder(p):
    p.mkdir()


# (file name, how to write it, words the message must contain)
BAD = [
    ("empty.csv", _bytes(b""), "is empty"),
    ("blank.csv", _bytes(codecs.BOM_UTF8 + b"\r\n  \r\n"), "is empty"),
    ("header_only.csv", _csv("task,model,score\n"), "has no rows"),
    ("folder.csv", _folder, "is a directory"),
    ("missing.csv", None, "does not exist"),
    ("book.xlsx", _bytes(b"PK\x03\x04" + b"\0" * 64), "use a .csv"),
    ("text.parquet", lambda p: _long().to_csv(p, index=False), "is a text file"),
    ("columnar.csv", lambda p: _long().to_parquet(p), "is a Parquet file"),
    ("workbook.csv", _bytes(b"PK\x03\x04" + b"\0" * 64), "Excel"),
    ("old_workbook.csv", _bytes(b"\xd0\xcf\x11\xe0" + b"\0" * 64), "Excel"),
    ("packed.csv", lambda p: p.write_bytes(gzip.compress(_long().to_csv(index=False).encode())),
     "gzip"),
    ("broken.parquet", _bytes(b"PAR1" + b"\x07" * 40), "cannot read the Parquet file"),
    ("nul.csv", _bytes(b"task,model,score\na,A,0.1\x00\x00\n"), "binary"),
    ("latin1.csv", lambda p: _long().assign(task="caf\xe9").to_csv(p, index=False, encoding="cp1252"),
     "not valid utf-8"),
    ("late_latin1.csv", _late_bad_byte, "line 2402"),
    ("one_column.csv", _csv("task model score\na A 0.1\na B 0.2\n"), "single column"),
    ("ragged.csv", _csv("task,model,score\na,A,0.1\na,B,0.2\nb,A,0.3,7\nb,B,0.4\n"), "line 4"),
    ("twice.csv", _csv("task,A,A\na,0.1,0.2\nb,0.3,0.4\n"), "column 'A' 2 times"),
    ("two_header_rows.csv", _two_header_rows, "2 header rows (a column MultiIndex)"),
    ("quoted_commas.csv", lambda p: _long().assign(score="0,5").to_csv(p, index=False),
     "decimal comma"),
    ("mixed_marks.csv", _csv("task;model;score;time\na;A;0,91;1.5\na;B;0,85;2.5\n"),
     "mixes decimal marks"),
    ("wide_model_named_model.csv", lambda p: _wide(("model", "B", "C")).to_csv(p, index=False),
     "wide table"),
    ("wide_y_true.csv", lambda p: _wide(("y_true", "B", "C")).to_csv(p, index=False),
     "'y_true' names a model"),
    ("na_score.csv", lambda p: _long().assign(score=lambda d: d.score.where(d.index != 3))
     .to_csv(p, index=False), "missing"),
    ("text_score.csv", _csv("task,model,score\na,A,0.1\na,B,high\nb,A,0.3\nb,B,0.4\n"),
     "not numeric"),
    ("empty_model.csv", _csv("task,model,score\na,A,0.1\na,,0.2\nb,A,0.3\nb,B,0.4\n"),
     "'model' is empty"),
    ("duplicates.csv", lambda p: pd.concat([_long(), _long().iloc[:1]]).to_csv(p, index=False),
     "share the same"),
    # A whole missing cell is analysed (tests/stats/test_incomplete.py); NaN in some folds is not.
    ("one_model.csv", lambda p: _long(models=("A",)).to_csv(p, index=False), "at least 2"),
    ("no_metric.csv", _csv("task,model,note\na,A,x\na,B,y\n"), "no metric column"),
    ("results.json", _csv("{}"), "use a .csv"),
]


@pytest.mark.parametrize("name, write, words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_gets_one_clear_message(tmp_path, name, write, words):
    path = tmp_path / name
    if write is not None:
        write(path)
    res = runner.invoke(app, ["compare", str(path)])
    output = " ".join(res.output.split())  # rich wraps long lines
    assert res.exit_code == 1, output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
    assert "error" in output.lower() and words in output


def _friedman_from_cli(path) -> float:
    res = runner.invoke(app, ["compare", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["tests"]["friedman"]["statistic"]


GOOD = [
    ("bom.csv", lambda d, p: d.to_csv(p, index=False, encoding="utf-8-sig")),
    ("semicolon_decimal_comma.csv", lambda d, p: d.to_csv(p, index=False, sep=";", decimal=",")),
    ("excel_unicode_text.txt", lambda d, p: d.to_csv(p, index=False, sep="\t", encoding="utf-16")),
    ("tabs.tsv", lambda d, p: d.to_csv(p, index=False, sep="\t")),
    ("pipes.csv", lambda d, p: d.to_csv(p, index=False, sep="|")),
    ("windows_lines.csv", lambda d, p: d.to_csv(p, index=False, lineterminator="\r\n")),
    ("columnar.parquet", lambda d, p: d.to_parquet(p)),
    ("names_like_values.csv",
     lambda d, p: d.replace({"model": {"A": "NA", "B": "1", "C": "1.0"}}).to_csv(p, index=False)),
]


@pytest.mark.parametrize("name, write", GOOD, ids=[g[0] for g in GOOD])
def test_an_odd_but_valid_file_gives_the_clean_files_friedman_statistic(tmp_path, name, write):
    df = _long()
    df.to_csv(tmp_path / "clean.csv", index=False)
    write(df, tmp_path / name)
    assert _friedman_from_cli(tmp_path / name) == _friedman_from_cli(tmp_path / "clean.csv")
