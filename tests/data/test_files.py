"""Reading result files as people write them: BOMs, encodings, delimiters, decimal commas,
misnamed and empty files, model names that look like numbers or missing values.

Property used throughout: a copy of a table written differently (a byte-order mark, ';' with
decimal commas, UTF-16, tabs) is the same data, so it must give exactly the same analysis.
"""
import codecs
import gzip

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from outperform import InvalidInputError
from outperform.compare import compare
from outperform.data import read_results


def _long(n_tasks=12, models=("A", "B", "C"), folds=3, seed=0):
    rng = np.random.default_rng(seed)
    skill = {m: 0.02 * i for i, m in enumerate(models)}
    return pd.DataFrame([{"task": f"t{t}", "model": m, "fold": f,
                          "score": round(float(0.7 + skill[m] + rng.normal(0, 0.05)), 6)}
                         for t in range(n_tasks) for m in models for f in range(folds)])


def _friedman(source) -> float:
    return compare(source).tests["friedman"].statistic


def _scipy_friedman(df: pd.DataFrame) -> float:
    # Peer: scipy.stats.friedmanchisquare on the fold means (no ties in these data, so its tie
    # correction is 1 and it equals Friedman's statistic as in Demšar 2006 eq. 1).
    wide = df.groupby(["task", "model"])["score"].mean().unstack()
    return stats.friedmanchisquare(*wide.to_numpy().T).statistic


# --- copies of one table written differently give the same analysis -----------------------

@pytest.mark.parametrize("write", [
    pytest.param(lambda d, p: d.to_csv(p, index=False, encoding="utf-8-sig"), id="utf8-bom"),
    pytest.param(lambda d, p: d.to_csv(p, index=False, sep=";", decimal=","), id="semicolon-decimal-comma"),
    pytest.param(lambda d, p: d.to_csv(p, index=False, sep="\t", encoding="utf-16"), id="utf16-tabs"),
    pytest.param(lambda d, p: d.to_csv(p, index=False, sep="\t", decimal=",", encoding="utf-8-sig"),
                 id="bom-tabs-decimal-comma"),
    pytest.param(lambda d, p: d.to_csv(p, index=False, sep="|"), id="pipes"),
    pytest.param(lambda d, p: d.to_csv(p, index=False, lineterminator="\r\n"), id="crlf"),
])
def test_a_copy_written_differently_gives_the_same_friedman_statistic(tmp_path, write):
    df = _long()
    df.to_csv(tmp_path / "clean.csv", index=False)
    write(df, tmp_path / "copy.csv")
    clean = _friedman(tmp_path / "clean.csv")
    assert _friedman(tmp_path / "copy.csv") == clean
    assert clean == pytest.approx(_scipy_friedman(df), rel=1e-12)


def test_a_bom_no_longer_hides_the_task_column(tmp_path):
    # Spreadsheets' "CSV UTF-8" starts with a BOM; it used to turn 'task' into '\ufefftask'.
    _long().to_csv(tmp_path / "r.csv", index=False, encoding="utf-8-sig")
    table = read_results(tmp_path / "r.csv")
    assert table.tasks[:2] == ("t0", "t1") and len(table.tasks) == 12


def test_tsv_suffix_is_read_as_tabs(tmp_path):
    df = _long()
    df.to_csv(tmp_path / "r.tsv", index=False, sep="\t")
    assert _friedman(tmp_path / "r.tsv") == pytest.approx(_scipy_friedman(df), rel=1e-12)


# --- encodings ---------------------------------------------------------------------------

def test_undecodable_bytes_are_located_and_the_encoding_can_be_given(tmp_path):
    df = _long()
    df["task"] = df["task"].str.replace("t1", "tä")
    path = tmp_path / "latin.csv"
    df.to_csv(path, index=False, encoding="cp1252")
    data = path.read_bytes()
    offset = data.index(b"\xe4")
    line = data[:offset].count(b"\n") + 1
    with pytest.raises(InvalidInputError, match=rf"byte {offset} \(line {line}\).*UTF-8"):
        read_results(path)
    assert "tä" in read_results(path, encoding="cp1252").tasks


def test_undecodable_byte_far_into_the_file_is_located(tmp_path):
    # Beyond the sample used to detect the format: found by the parser, then located exactly.
    df = _long(n_tasks=400)
    df.loc[6000, "task"] = "täsk"
    path = tmp_path / "late.csv"
    df.to_csv(path, index=False, encoding="cp1252")
    data = path.read_bytes()
    offset = data.index(b"\xe4")
    line = data[:offset].count(b"\n") + 1
    assert offset > 2**16  # past the sample
    with pytest.raises(InvalidInputError, match=rf"byte {offset} \(line {line}\)"):
        read_results(path)


def test_unknown_encoding_name(tmp_path):
    _long().to_csv(tmp_path / "r.csv", index=False)
    with pytest.raises(InvalidInputError, match="unknown encoding"):
        read_results(tmp_path / "r.csv", encoding="klingon")


# --- files that are not what their name says ------------------------------------------------

def test_empty_files_and_directories(tmp_path):
    (tmp_path / "empty.csv").write_bytes(b"")
    (tmp_path / "blank.csv").write_bytes(codecs.BOM_UTF8 + b"\n \n")
    (tmp_path / "header.csv").write_text("task,model,score\n")
    (tmp_path / "folder.csv").mkdir()
    for name in ("empty.csv", "blank.csv"):
        with pytest.raises(InvalidInputError, match="is empty"):
            read_results(tmp_path / name)
    with pytest.raises(InvalidInputError, match="'header.csv' is empty: it has no rows"):
        read_results(tmp_path / "header.csv")
    with pytest.raises(InvalidInputError, match="is a directory"):
        read_results(tmp_path / "folder.csv")


def test_a_partitioned_parquet_directory_is_still_read(tmp_path):
    df = _long()
    df.to_parquet(tmp_path / "ds", partition_cols=["fold"])
    assert _friedman(tmp_path / "ds") == pytest.approx(_scipy_friedman(df), rel=1e-12)


def test_content_that_does_not_match_the_suffix(tmp_path):
    df = _long()
    df.to_csv(tmp_path / "text.parquet", index=False)
    df.to_parquet(tmp_path / "columnar.csv")
    (tmp_path / "book.csv").write_bytes(b"PK\x03\x04" + b"\x00" * 100)
    (tmp_path / "zipped.csv").write_bytes(gzip.compress(df.to_csv(index=False).encode()))
    with pytest.raises(InvalidInputError, match=r"named \.parquet but is a text file"):
        read_results(tmp_path / "text.parquet")
    with pytest.raises(InvalidInputError, match="is a Parquet file.*rename it to .parquet"):
        read_results(tmp_path / "columnar.csv")
    with pytest.raises(InvalidInputError, match="Excel"):
        read_results(tmp_path / "book.csv")
    with pytest.raises(InvalidInputError, match="gzip"):
        read_results(tmp_path / "zipped.csv")


def test_broken_parquet(tmp_path):
    (tmp_path / "broken.parquet").write_bytes(b"PAR1" + b"\x01" * 50)
    with pytest.raises(InvalidInputError, match="cannot read the Parquet file 'broken.parquet'"):
        read_results(tmp_path / "broken.parquet")


def test_ragged_lines_single_columns_and_repeated_headers(tmp_path):
    (tmp_path / "ragged.csv").write_text("task,model,score\na,A,0.1\na,B,0.2\nb,A,0.3,9\nb,B,0.4\n")
    (tmp_path / "one.csv").write_text("task model score\na A 0.1\na B 0.2\n")
    (tmp_path / "twice.csv").write_text("task,A,A\na,0.1,0.2\nb,0.3,0.4\n")
    with pytest.raises(InvalidInputError, match="line 4"):
        read_results(tmp_path / "ragged.csv")
    with pytest.raises(InvalidInputError, match="single column"):
        read_results(tmp_path / "one.csv")
    # pandas would silently rename the second 'A' to 'A.1', a model nobody trained.
    with pytest.raises(InvalidInputError, match="column 'A' 2 times"):
        read_results(tmp_path / "twice.csv")


# --- decimal commas -------------------------------------------------------------------------

def test_decimal_commas_beside_whole_numbers(tmp_path):
    # Spreadsheets write a perfect score as "1", not "1,0": the column is still decimal-comma.
    df = _long()
    df.loc[df.index % 7 == 0, "score"] = 1.0
    text = df.to_csv(index=False, sep=";").replace(".", ",").replace(";1,0\n", ";1\n")
    assert ";1\n" in text
    (tmp_path / "r.csv").write_text(text)
    df.to_csv(tmp_path / "clean.csv", index=False)
    assert _friedman(tmp_path / "r.csv") == _friedman(tmp_path / "clean.csv")


def test_decimal_commas_that_cannot_be_read_say_so(tmp_path):
    df = _long()
    quoted = df.assign(score=df.score.map(lambda v: f"{v}".replace(".", ",")))
    quoted.to_csv(tmp_path / "quoted.csv", index=False)   # "0,71" quoted inside a ','-file
    (tmp_path / "mixed.csv").write_text("task;model;score;time\na;A;0,91;1.5\na;B;0,85;2.5\n")
    with pytest.raises(InvalidInputError, match="decimal comma"):
        read_results(tmp_path / "quoted.csv")
    with pytest.raises(InvalidInputError, match="mixes decimal marks"):
        read_results(tmp_path / "mixed.csv")
    with pytest.raises(InvalidInputError, match="decimal comma"):
        read_results(quoted)   # a DataFrame of text such as '0,71'


def test_decimal_comma_after_the_sample_is_named(tmp_path):
    df = _long(n_tasks=1000).astype({"score": object})
    df.loc[8000, "score"] = "0,5"
    df.to_csv(tmp_path / "late.csv", index=False, sep=";")
    assert (tmp_path / "late.csv").read_text().index("0,5") > 2**16  # past the sample
    with pytest.raises(InvalidInputError, match="row 8000 holds '0,5'.*decimal comma"):
        read_results(tmp_path / "late.csv")


# --- names ----------------------------------------------------------------------------------

NAMES = ("NA", "None", "1", "1.0")


def test_model_and_task_names_that_look_missing_or_numeric_stay_names(tmp_path):
    rng = np.random.default_rng(3)
    long = pd.DataFrame([{"task": t, "model": m, "score": rng.uniform()}
                         for t in ("NA", "nan", "2", "2.0", "x", "y") for m in NAMES])
    long.to_csv(tmp_path / "long.csv", index=False)
    table = read_results(tmp_path / "long.csv")
    assert table.models == NAMES and table.tasks == ("NA", "nan", "2", "2.0", "x", "y")
    wide = long.pivot(index="task", columns="model", values="score").reset_index()
    wide.to_csv(tmp_path / "wide.csv", index=False)
    assert set(read_results(tmp_path / "wide.csv").models) == set(NAMES)
    # The same analysis as the in-memory table, where the names were never parsed.
    expected = stats.friedmanchisquare(*wide[list(NAMES)].to_numpy().T).statistic
    assert _friedman(tmp_path / "long.csv") == pytest.approx(expected, rel=1e-12)


def test_task_and_model_columns_are_compact(tmp_path):
    df = _long(n_tasks=200, folds=50)
    df.to_csv(tmp_path / "r.csv", index=False)
    frame = read_results(tmp_path / "r.csv").frame
    per_row = frame[["task", "model"]].memory_usage(deep=True, index=False).sum() / len(frame)
    assert per_row <= 4   # categorical codes, not one string object per row


def test_a_wide_model_named_score_or_model(tmp_path):
    rng = np.random.default_rng(4)
    wide = pd.DataFrame({"task": [f"t{i}" for i in range(8)], "score": rng.uniform(size=8),
                         "B": rng.uniform(size=8), "C": rng.uniform(size=8)})
    wide.to_csv(tmp_path / "score.csv", index=False)
    assert read_results(tmp_path / "score.csv").models == ("score", "B", "C")
    expected = stats.friedmanchisquare(*wide[["score", "B", "C"]].to_numpy().T).statistic
    assert _friedman(tmp_path / "score.csv") == pytest.approx(expected, rel=1e-12)
    as_model = wide.rename(columns={"score": "model"})
    with pytest.raises(InvalidInputError, match="wide table.*model called 'model'"):
        read_results(as_model)
    assert read_results(as_model, layout="wide").models == ("model", "B", "C")


def test_a_model_named_y_true_beside_a_task_column_is_not_read_as_labels(tmp_path):
    rng = np.random.default_rng(5)
    wide = pd.DataFrame({"task": [f"t{i}" for i in range(8)], "y_true": rng.uniform(size=8),
                         "B": rng.uniform(size=8), "C": rng.uniform(size=8)})
    wide.to_csv(tmp_path / "w.csv", index=False)
    with pytest.raises(InvalidInputError, match="'y_true' names a model, rename"):
        compare(tmp_path / "w.csv")
    assert compare(tmp_path / "w.csv", question="Q3").models == ("y_true", "B", "C")


def test_a_written_pandas_index_is_not_a_model(tmp_path):
    rng = np.random.default_rng(6)
    wide = pd.DataFrame(rng.uniform(size=(8, 3)), columns=["A", "B", "C"])
    wide.to_csv(tmp_path / "w.csv")   # first column: the unnamed index 0..7
    assert read_results(tmp_path / "w.csv").models == ("A", "B", "C")


def test_empty_names_in_a_file_are_refused(tmp_path):
    (tmp_path / "r.csv").write_text("task,model,score\na,A,0.1\na,,0.2\nb,A,0.3\nb,B,0.4\n")
    with pytest.raises(InvalidInputError, match="column 'model' is empty in row 1"):
        read_results(tmp_path / "r.csv")


def test_missing_metric_values_are_called_missing(tmp_path):
    df = _long()
    df.loc[4, "score"] = np.nan
    df.to_csv(tmp_path / "r.csv", index=False)
    with pytest.raises(InvalidInputError, match="missing/NaN"):
        read_results(tmp_path / "r.csv")
    df = _long()
    df.loc[0, "fold"] = np.nan
    with pytest.raises(InvalidInputError, match="column 'fold' is empty in row 0"):
        read_results(df)


# --- scale ----------------------------------------------------------------------------------

def test_ten_thousand_models_are_refused_before_allocating_the_pair_tables():
    rng = np.random.default_rng(7)
    wide = pd.DataFrame(rng.uniform(size=(5, 10_000)), columns=[f"m{i}" for i in range(10_000)])
    wide.insert(0, "task", [f"t{i}" for i in range(5)])
    with pytest.raises(InvalidInputError, match=r"10,000 models.*49,995,000 pairs.*posthoc='none'"):
        compare(wide)
    with pytest.raises(InvalidInputError, match="10,000 models"):
        compare(wide, control="m0")
    report = compare(wide, posthoc="none")
    assert report.posthoc == {} and len(report.summary) == 10_000
    # Peer: scipy's Friedman statistic on the same matrix.
    assert report.tests["friedman"].statistic == pytest.approx(
        stats.friedmanchisquare(*wide.iloc[:, 1:].to_numpy().T).statistic, rel=1e-9)
