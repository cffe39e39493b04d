"""Faults of the experiment runner (issue 25, item 5): nothing lost, nothing foreign merged.

- The journal is checked record by record before it is merged: a well-formed record of
  another experiment, or two different records of one fit, are refused naming the line(s),
  and no file changes; malformed lines are skipped with a warning naming them.
- A damaged results file (truncated, empty, cut mid-row) is set aside and rebuilt from the
  journal: the journal's finished fits are never lost, only the others are computed again.
- The worker processes of a parallel run end with it, however it ends.

Every expected outcome is written from the journal's own lines or from a fresh run of the
same experiment without a results file (the reference), never from the code under test.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pandas as pd
import pytest
from sklearn.naive_bayes import GaussianNB

from outperform._validation import InvalidInputError
from outperform.experiments import predictions_path, run_experiment

DESIGN = "2x3"   # iris: 2 runs x 3 folds, n_train 100, n_test 50, random_state 0


class Counting(GaussianNB):
    """Gaussian naive Bayes that counts its fits (all clones together, in this process)."""

    fits = [0]

    def fit(self, X, y):
        Counting.fits[0] += 1
        return super().fit(X, y)


def _no_times(df):
    return df.drop(columns=["fit_time", "score_time"])


@pytest.fixture(scope="module")
def reference():
    """The experiment run whole, without a results file: scores and predictions."""
    return run_experiment({"nb": GaussianNB()}, "iris", DESIGN, store_predictions=True,
                          progress=False)


def _lines(reference, n=3):
    """The first ``n`` fits as the runner writes them to the journal (with predictions)."""
    scores, pred = reference
    out = []
    for row in scores.head(n).to_dict(orient="records"):
        mine = pred[(pred["run"] == row["run"]) & (pred["fold"] == row["fold"])]
        out.append({"row": row, "pred": {k: mine[k].tolist()
                                         for k in ("example", "y_true", "y_pred", "correct")}})
    return out


def _run(out, **kwargs):
    Counting.fits[0] = 0
    return run_experiment({"nb": Counting()}, "iris", DESIGN, out=out, store_predictions=True,
                          progress=False, **kwargs)


# --- journal records: foreign, conflicting, malformed ------------------------------------------

def _changed(record, **row):
    return {"row": {**record["row"], **row}, "pred": record["pred"]}


FOREIGN = [
    # (how line 2 is changed, what the refusal says)
    (dict(design="5x2"), "line 2 of the journal .* is a fit of design '5x2' random_state=0, "
                         "not design '2x3' random_state=0"),
    (dict(random_state=7), "line 2 .* design '2x3' random_state=7, not design '2x3' random_state=0"),
    (dict(f1_macro=0.5), r"line 2 .* scored by metrics \['accuracy', 'f1_macro'\], not \['accuracy'\]"),
    (dict(run=9), "line 2 .* run 9, fold 1 of data set 'iris', which design '2x3' random_state=0 "
                  "does not have"),
    (dict(fold=4), "line 2 .* run 0, fold 4 of data set 'iris'"),
    (dict(n_train=99, n_test=51), "line 2 .* with 99 training and 51 test examples, not 100 and "
                                  "50: another version of the data set"),
]


@pytest.mark.parametrize("change, message", FOREIGN)
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_foreign_record_is_refused_naming_its_line_and_nothing_changes(
        tmp_path, reference, change, message, suffix):
    out = tmp_path / f"r{suffix}"
    first = run_experiment({"nb": GaussianNB()}, "iris", "2x3", out=out, progress=False)
    before = out.read_bytes()
    lines = _lines(reference)
    lines[1] = _changed(lines[1], **change)
    journal = out.with_name(out.name + ".journal")
    text = "".join(json.dumps(r) + "\n" for r in lines)
    journal.write_text(text)
    for _ in range(2):   # every later run says the same; the file is not poisoned
        with pytest.raises(InvalidInputError, match=message) as info:
            run_experiment({"nb": GaussianNB()}, "iris", "2x3", out=out, progress=False)
        assert f"{out} is unchanged" in str(info.value)
        assert out.read_bytes() == before and journal.read_text() == text
    journal.unlink()     # what the message says to do
    again = run_experiment({"nb": GaussianNB()}, "iris", "2x3", out=out, progress=False)
    pd.testing.assert_frame_equal(again, first)


def test_a_duplicated_record_with_another_score_is_refused_by_key(tmp_path, reference):
    out = tmp_path / "r.csv"
    lines = _lines(reference)
    lines.append(_changed(lines[0], accuracy=lines[0]["row"]["accuracy"] - 0.02))
    journal = out.with_name(out.name + ".journal")
    journal.write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.raises(InvalidInputError,
                       match=r"lines 1 and 4 of the journal .* both hold the fit of model 'nb' on "
                             r"data set 'iris', run 0, fold 0, with different results"):
        _run(out)
    assert not out.exists() and not predictions_path(out).exists()


def test_a_duplicated_record_with_other_predictions_is_refused(tmp_path, reference):
    out = tmp_path / "r.csv"
    lines = _lines(reference)
    twin = json.loads(json.dumps(lines[2]))
    twin["pred"]["y_pred"][0] = (twin["pred"]["y_pred"][0] + 1) % 3
    journal = out.with_name(out.name + ".journal")
    journal.write_text("".join(json.dumps(r) + "\n" for r in [*lines, twin]))
    with pytest.raises(InvalidInputError, match="lines 3 and 4 of the journal"):
        _run(out)


def test_an_identical_repeat_differing_only_in_timings_is_merged_once(tmp_path, reference):
    out = tmp_path / "r.parquet"
    lines = _lines(reference)
    lines.append(_changed(lines[0], fit_time=123.0, score_time=4.0))
    out.with_name(out.name + ".journal").write_text("".join(json.dumps(r) + "\n" for r in lines))
    scores, pred = _run(out)
    assert Counting.fits[0] == 3             # the journal's three fits were kept
    pd.testing.assert_frame_equal(_no_times(scores), _no_times(reference[0]), check_dtype=False)
    pd.testing.assert_frame_equal(pred, reference[1], check_dtype=False)
    assert scores["fit_time"].iloc[0] == 123.0   # the later of the two lines


def test_a_record_of_another_data_set_of_the_same_experiment_is_kept(tmp_path, reference):
    # A results file may hold data sets this run does not ask for (an earlier, wider run).
    out = tmp_path / "r.csv"
    lines = _lines(reference)
    other = _changed(lines[0], task="wine")
    out.with_name(out.name + ".journal").write_text(
        "".join(json.dumps(r) + "\n" for r in [*lines, other]))
    scores, _ = _run(out)
    assert Counting.fits[0] == 3 and set(scores["task"]) == {"iris"}
    assert (pd.read_csv(out)["task"] == "wine").sum() == 1


MALFORMED = [
    # (line 2 replaced by, why it is not a record)
    (lambda r: _changed(r, run="1"), "a run given as text"),
    (lambda r: _changed(r, accuracy=True), "a score that is a flag"),
    (lambda r: _changed(r, accuracy="0.96"), "a score given as text"),
    (lambda r: {"row": {k: v for k, v in r["row"].items() if k != "design"}, "pred": r["pred"]},
     "no design"),
    (lambda r: {"row": r["row"], "pred": {**r["pred"], "y_pred": r["pred"]["y_pred"][:-1]}},
     "predictions of different lengths"),
    (lambda r: {"row": r["row"]}, "no predictions field"),
]


@pytest.mark.parametrize("damage, why", MALFORMED, ids=[w for _, w in MALFORMED])
def test_a_malformed_record_is_skipped_naming_its_line_and_redone(tmp_path, reference, damage, why):
    out = tmp_path / "r.csv"
    lines = [json.dumps(r) for r in _lines(reference)]
    lines[1] = json.dumps(damage(json.loads(lines[1])))
    out.with_name(out.name + ".journal").write_text("\n".join(lines) + "\n")
    with pytest.warns(UserWarning, match=r"skipped 1 corrupt line\(s\) of the journal .*line 2\)"):
        scores, pred = _run(out)
    assert Counting.fits[0] == 4             # lines 1 and 3 kept; line 2 and 3 more fits redone
    pd.testing.assert_frame_equal(_no_times(scores), _no_times(reference[0]), check_dtype=False)
    pd.testing.assert_frame_equal(pred, reference[1], check_dtype=False)


# --- a damaged results file -------------------------------------------------------------------

def _truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def _cut_mid_row(path):
    text = path.read_text()
    path.write_text(text[:text.rindex(",", 0, len(text) - 2)])  # the last row loses its end


def _empty(path):
    path.write_bytes(b"")


DAMAGE = [(".parquet", "results", _truncate), (".parquet", "results", _empty),
          (".csv", "results", _cut_mid_row), (".csv", "results", _empty),
          (".parquet", "predictions", _truncate), (".csv", "predictions", _cut_mid_row)]


@pytest.mark.parametrize("suffix, which, damage", DAMAGE)
def test_a_damaged_results_file_is_set_aside_and_the_journal_fits_are_kept(
        tmp_path, reference, suffix, which, damage):
    # Issue 25: "a truncated results Parquet loses every finished fit".
    out = tmp_path / f"r{suffix}"
    _run(out)                                            # a finished run: 6 fits in out
    target = out if which == "results" else predictions_path(out)
    damage(target)
    damaged = target.read_bytes()
    out.with_name(out.name + ".journal").write_text(
        "".join(json.dumps(r) + "\n" for r in _lines(reference, 2)))
    with pytest.warns(UserWarning, match=rf"cannot read {target}.*Moved it to "
                                         rf"{target}\.damaged; .* rebuilt from the journal"):
        scores, pred = _run(out)
    assert Counting.fits[0] == 4                         # the journal's two fits are not redone
    assert target.with_name(target.name + ".damaged").read_bytes() == damaged   # kept, as found
    pd.testing.assert_frame_equal(_no_times(scores), _no_times(reference[0]), check_dtype=False)
    pd.testing.assert_frame_equal(pred, reference[1], check_dtype=False)


def test_a_second_damaged_file_does_not_overwrite_the_first_set_aside(tmp_path):
    out = tmp_path / "r.parquet"
    for n in (1, 2):
        _run(out)
        _truncate(out)
        with pytest.warns(UserWarning, match="cannot read"):
            _run(out)
    assert (tmp_path / "r.parquet.damaged").exists() and (tmp_path / "r.parquet.damaged-2").exists()


# --- workers end with the run -----------------------------------------------------------------

def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (ended, not yet reaped by its new parent) is dead for this purpose
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


_ORPHAN = textwrap.dedent("""
    import subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c",
        "import os, time; from outperform._parallel import end_with_parent; "
        "end_with_parent(os.getppid()); print(os.getpid(), flush=True); time.sleep(600)"],
        stdout=subprocess.PIPE, text=True)
    print(child.stdout.readline().strip(), flush=True)
    time.sleep(600)
""")


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="parent-death checks are POSIX only")
def test_a_process_set_to_end_with_its_parent_ends_when_the_parent_is_killed():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    parent = subprocess.Popen([sys.executable, "-c", _ORPHAN], stdout=subprocess.PIPE, text=True,
                              env=env)
    try:
        child = int(parent.stdout.readline())
        assert _alive(child)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    still = _alive(child)
    if still:
        os.kill(child, signal.SIGKILL)
    assert not still, "the child outlived its killed parent by 10 s"


_PARALLEL_RUN = textwrap.dedent("""
    import sys, time
    from sklearn.naive_bayes import GaussianNB
    from outperform.experiments import run_experiment

    class Slow(GaussianNB):
        def fit(self, X, y):
            time.sleep(2.0)
            return super().fit(X, y)

    run_experiment({"slow": Slow()}, "iris", "10x10", out=sys.argv[1], n_jobs=2, progress=False)
""")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="lists processes in /proc")
def test_killing_a_parallel_run_ends_its_workers(tmp_path):
    # Issue 25: "killing only the main process of `benchmark --n-jobs 2` leaves its workers
    # running for minutes" (loky's idle timeout is 300 s).
    psutil = pytest.importorskip("psutil")
    out = tmp_path / "r.csv"
    journal = out.with_name(out.name + ".journal")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    main = subprocess.Popen([sys.executable, "-c", _PARALLEL_RUN, str(out)], env=env)
    try:
        deadline = time.monotonic() + 300
        workers = []
        while time.monotonic() < deadline:
            workers = [p for p in psutil.Process(main.pid).children(recursive=True)
                       if "popen_loky_posix" in " ".join(p.cmdline())]
            if len(workers) == 2 and journal.exists():
                break
            time.sleep(0.2)
        assert len(workers) == 2, "the run did not start its two workers in time"
    finally:
        main.send_signal(signal.SIGKILL)
        main.wait()
    gone, alive = psutil.wait_procs(workers, timeout=10)
    for p in alive:
        p.kill()
    assert not alive, f"{len(alive)} worker(s) outlived the killed run by 10 s"


def test_a_readable_file_of_something_else_is_refused_not_moved(tmp_path):
    out = tmp_path / "r.csv"
    out.write_text("dataset,mine,baseline\nd1,0.8,0.7\n")
    with pytest.raises(InvalidInputError, match=r"r\.csv is not a results file of run_experiment "
                                                r"\(no column \['task', 'model', 'run', 'fold'"):
        _run(out)
    assert out.read_text() == "dataset,mine,baseline\nd1,0.8,0.7\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]
