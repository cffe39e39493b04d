"""Every file the package writes is whole or absent (issue 25, item 5: nothing lost on faults).

A full disk is simulated in-process by an ``open`` that writes part of what it is given and
then raises ``OSError(errno.ENOSPC)`` (the report's text files, matplotlib's SVG and PDF
writers and pandas' CSV writer all write through Python's ``open``), and by an ``os.fsync``
that raises it (where a file system reports a full disk late; pyarrow writes Parquet
natively). The slow test at the end makes the operating system itself cut the writes short
(``RLIMIT_FSIZE``) in a separate process. In every case the previous file must be intact,
byte for byte, and no partial, empty or temporary file may remain.
"""
from __future__ import annotations

import builtins
import errno
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from outperform import _atomic
from outperform.compare import compare
from outperform.data import load_demsar_table2, load_demsar_table6
from outperform.experiments import run_experiment
from outperform.plot import cd_diagram, save_figure
from outperform.report import render_json, write_report

# --- a disk that fills up ------------------------------------------------------------------


class _FillingFile:
    """A file object that accepts ``room[0]`` more bytes (or characters), then ENOSPC."""

    def __init__(self, f, room):
        self._f, self._room = f, room

    def write(self, data):
        if len(data) > self._room[0]:
            self._f.write(data[:self._room[0]])
            self._f.flush()
            self._room[0] = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self._room[0] -= len(data)
        return self._f.write(data)

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


@pytest.fixture
def full_disk(monkeypatch, tmp_path):
    """``fill(room)``: from now on, files written under tmp_path hold ``room`` more bytes."""
    real_open = builtins.open

    def fill(room: int):
        left = [room]

        def filling_open(file, mode="r", *args, **kwargs):
            f = real_open(file, mode, *args, **kwargs)
            writing = any(c in mode for c in "wax+")
            if writing and isinstance(file, (str, os.PathLike)) and str(tmp_path) in str(file):
                return _FillingFile(f, left)
            return f

        monkeypatch.setattr(builtins, "open", filling_open)
    return fill


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# --- the helper ----------------------------------------------------------------------------

def test_a_full_disk_halfway_leaves_the_previous_file_and_names_the_target(tmp_path, full_disk):
    target = tmp_path / "table.txt"
    target.write_text("previous\n")
    full_disk(5)
    with pytest.raises(OSError) as info:
        _atomic.write_text(target, "new content, longer than the room left\n")
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(target)
    assert _snapshot(tmp_path) == {"table.txt": b"previous\n"}


def test_a_full_disk_on_a_new_file_leaves_no_file(tmp_path, full_disk):
    full_disk(5)
    with pytest.raises(OSError, match="No space left"):
        _atomic.write_bytes(tmp_path / "new.bin", b"0123456789")
    assert list(tmp_path.iterdir()) == []


def test_a_full_disk_reported_at_fsync_leaves_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "t.txt"
    target.write_text("previous")

    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError) as info:
        _atomic.write_text(target, "new")
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(target)
    assert _snapshot(tmp_path) == {"t.txt": b"previous"}


def test_an_exception_while_writing_leaves_the_previous_file(tmp_path):
    target = tmp_path / "t.txt"
    target.write_text("previous")
    with pytest.raises(ZeroDivisionError), _atomic.atomic_open(target) as f:
        f.write("half")
        1 / 0
    assert _snapshot(tmp_path) == {"t.txt": b"previous"}


def test_an_error_about_another_file_is_passed_on_unchanged(tmp_path):
    with pytest.raises(FileNotFoundError) as info, _atomic.atomic_path(tmp_path / "out.txt"):
        open(tmp_path / "missing.csv")
    assert info.value.filename == str(tmp_path / "missing.csv")
    assert list(tmp_path.iterdir()) == []


def test_permissions_are_those_of_open(tmp_path):
    umask = os.umask(0o022)
    try:
        new = _atomic.write_text(tmp_path / "new.txt", "x")
        old = tmp_path / "old.txt"
        old.write_text("y")
        old.chmod(0o640)
        _atomic.write_text(old, "z")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644    # 0o666 minus the umask, as open()
    assert stat.S_IMODE(old.stat().st_mode) == 0o640    # an existing file keeps its mode
    assert old.read_text() == "z"


# --- the package's writers -----------------------------------------------------------------

@pytest.fixture(scope="module")
def reports():
    return compare(load_demsar_table6()), compare(load_demsar_table2())


@pytest.mark.slow
@pytest.mark.parametrize("formats", [("md",), ("html",), ("json",), ("txt",), ("tex",),
                                     ("md", "json")])
@pytest.mark.parametrize("room", [0, 700])
def test_write_report_on_a_full_disk_keeps_the_previous_report(tmp_path, full_disk, reports,
                                                               formats, room):
    # Issue 25: "on a full disk `report` leaves 0-byte files". room=700 fails inside the
    # first file (each is longer), room=0 at its first byte; with "tex" the PDF figure
    # written by render_latex is the first file.
    old, new = reports
    write_report(old, tmp_path, formats=formats)
    before = _snapshot(tmp_path)
    full_disk(room)
    with pytest.raises(OSError) as info:
        write_report(new, tmp_path, formats=formats)
    assert info.value.errno == errno.ENOSPC
    assert Path(info.value.filename).parent == tmp_path     # names a file of the report
    assert _snapshot(tmp_path) == before


def test_write_report_when_the_disk_fills_at_the_figures(tmp_path, full_disk, reports):
    old, new = reports[0], compare(load_demsar_table6(), alpha=0.10)   # both draw diagrams
    write_report(old, tmp_path, formats=("json",))
    before = _snapshot(tmp_path)
    full_disk(len(render_json(new)) + 10)   # the JSON fits, the first diagram does not
    with pytest.raises(OSError) as info:
        write_report(new, tmp_path, formats=("json",))
    assert info.value.filename == str(tmp_path / "report-cd.pdf")
    after = _snapshot(tmp_path)
    # the JSON is the new report, whole; the diagram files are the previous ones
    assert after.pop("report.json").decode() == render_json(new)
    before.pop("report.json")
    assert after == before


@pytest.mark.parametrize("suffix", [".svg", ".pdf", ".png"])
def test_save_figure_on_a_full_disk_leaves_no_truncated_image(tmp_path, full_disk, suffix):
    # Issue 25: "`leaderboard --plot` leaves a truncated SVG".
    path = tmp_path / f"cd{suffix}"
    save_figure(cd_diagram([1.2, 2.5, 2.3], ["A", "B", "C"]), path)
    before = _snapshot(tmp_path)
    full_disk(300)
    with pytest.raises(OSError) as info:
        save_figure(cd_diagram([1.5, 1.5], ["X", "Y"]), path)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(path)
    assert _snapshot(tmp_path) == before


def _no_times(df):
    return df.drop(columns=["fit_time", "score_time"])


def test_results_csv_on_a_full_disk_keeps_the_fits_and_the_run_resumes(tmp_path, full_disk):
    out = tmp_path / "r.csv"
    run_experiment("nb", "iris", "2x3", out=out, progress=False)
    before = out.read_bytes()
    full_disk(2000)   # a few journal lines fit; the merged results file does not
    with pytest.raises(OSError) as info:
        run_experiment("nb,dummy", "iris", "2x3", out=out, progress=False)
    assert info.value.errno == errno.ENOSPC
    assert out.read_bytes() == before                       # the six fits of nb, whole
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    full_disk(10**9)  # space again
    df = run_experiment("nb,dummy", "iris", "2x3", out=out, progress=False)
    fresh = run_experiment("nb,dummy", "iris", "2x3", progress=False)
    pd.testing.assert_frame_equal(_no_times(df), _no_times(fresh), check_dtype=False)


def test_results_parquet_when_fsync_reports_a_full_disk(tmp_path, monkeypatch):
    out = tmp_path / "r.parquet"
    run_experiment("nb", "iris", "2x3", out=out, progress=False)
    before = out.read_bytes()

    def fsync(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError) as info:
        run_experiment("nb,dummy", "iris", "2x3", out=out, progress=False)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(out)
    assert out.read_bytes() == before
    journal = out.with_name(out.name + ".journal")
    assert journal.exists()           # the six new fits wait there for the next run
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    monkeypatch.undo()
    df = run_experiment("nb,dummy", "iris", "2x3", out=out, progress=False)
    assert len(df) == 12 and not journal.exists()


# --- the operating system cuts the writes short ----------------------------------------------

_CUT_SHORT = textwrap.dedent("""
    import json, resource, signal, sys
    from pathlib import Path
    from outperform.compare import compare
    from outperform.data import load_demsar_table2, load_demsar_table6
    from outperform.experiments import run_experiment
    from outperform.report import render_json, write_report

    folder = Path(sys.argv[1])
    new = compare(load_demsar_table2())
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (3000, resource.RLIM_INFINITY))
    errors = []
    for call in (lambda: write_report(new, folder / "report"),
                 lambda: run_experiment("nb,dummy", "iris", "2x3", out=folder / "r.parquet",
                                        store_predictions=True, progress=False)):
        try:
            call()
            errors.append(None)
        except OSError as exc:
            errors.append([exc.errno, exc.filename])
    print(json.dumps(errors))
""")


@pytest.mark.slow
def test_writes_cut_short_by_the_operating_system(tmp_path):
    pytest.importorskip("resource")
    write_report(compare(load_demsar_table6()), tmp_path / "report")
    run_experiment("nb", "iris", "2x3", out=tmp_path / "r.parquet", store_predictions=True,
                   progress=False)
    before = {f"{p.parent.name}/{p.name}": p.read_bytes() for p in tmp_path.rglob("*")
              if p.is_file()}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    run = subprocess.run([sys.executable, "-c", _CUT_SHORT, str(tmp_path)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    errors = json.loads(run.stdout.splitlines()[-1])
    assert [e[0] for e in errors] == [errno.EFBIG, errno.EFBIG], errors
    after = {f"{p.parent.name}/{p.name}": p.read_bytes() for p in tmp_path.rglob("*")
             if p.is_file()}
    journal = after.pop(f"{tmp_path.name}/r.parquet.journal", None)
    assert after == before
    assert journal is not None   # the new fits: kept for the next run
