"""write_report: every format and the CD diagram files, in one folder (``outperform report``)."""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace

import pytest

from _report_cases import DEMSAR_SENTENCES, report
from outperform import InvalidInputError
from outperform.report import write_report
from outperform.report import latex_escape


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Demšar Table 6 at both levels, written in all formats."""
    out = {}
    for name in sorted(DEMSAR_SENTENCES):
        folder = tmp_path_factory.mktemp(name)
        out[name] = (folder, write_report(report(name), folder,
                                          formats=("html", "md", "tex", "json", "txt")))
    return out


def test_all_formats_and_figures_are_written(written):
    folder, paths = written["table6_010"]
    assert list(paths) == ["html", "md", "tex", "json", "txt", "report-cd.pdf", "report-cd.svg"]
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in paths.values())
    assert paths["report-cd.pdf"].read_bytes().startswith(b"%PDF")
    assert "<svg" in paths["report-cd.svg"].read_text()
    assert r"\includegraphics{report-cd.pdf}" in paths["tex"].read_text()
    assert json.loads(paths["json"].read_text())["alpha"] == 0.10


@pytest.mark.parametrize("name", sorted(DEMSAR_SENTENCES))
@pytest.mark.parametrize("fmt", ["html", "md", "tex", "json"])
def test_demsar_table6_conclusions_in_every_format(written, name, fmt):
    text = written[name][1][fmt].read_text(encoding="utf-8")
    if fmt == "json":
        text = " ".join(json.loads(text)["conclusions"])
    for sentence in DEMSAR_SENTENCES[name]:
        assert (latex_escape(sentence) if fmt == "tex" else sentence) in text


def test_plain_text_has_no_colour_codes(written):
    text = written["table6_005"][1]["txt"].read_text(encoding="utf-8")
    assert "\x1b[" not in text and "Nemenyi" in text and "C4.5+m+cf" in text


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_written_latex_compiles_with_its_figure(written):
    folder, paths = written["table6_010"]
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
                         cwd=folder, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:]
    log = (folder / "report.log").read_text(errors="replace")
    assert "report-cd.pdf" in log   # the diagram was included


def test_report_without_rank_posthoc_has_no_figure_files(tmp_path):
    paths = write_report(report("q2_two"), tmp_path / "new" / "dir", stem="q2")
    assert list(paths) == ["html", "md", "tex", "json"]
    assert sorted(p.name for p in (tmp_path / "new" / "dir").iterdir()) == [
        "q2.html", "q2.json", "q2.md", "q2.tex"]


def test_figures_without_latex_are_still_written(tmp_path):
    paths = write_report(report("table6_control"), tmp_path, formats=("json",), stem="t6")
    assert list(paths) == ["json", "t6-cd.pdf", "t6-cd.svg"]
    assert paths["t6-cd.pdf"].read_bytes().startswith(b"%PDF")


def test_several_diagrams_get_one_file_each(tmp_path):
    rep = report("table6_010")
    nemenyi = rep.posthoc["nemenyi"]
    two = replace(rep, posthoc={"nemenyi": nemenyi, "holm": replace(nemenyi, method="Holm")})
    paths = write_report(two, tmp_path, formats=("tex",))
    assert list(paths) == ["tex", "report-cd.pdf", "report-cd-holm.pdf", "report-cd.svg",
                           "report-cd-holm.svg"]
    tex = paths["tex"].read_text()
    for name in ("report-cd.pdf", "report-cd-holm.pdf"):
        assert f"\\includegraphics{{{name}}}" in tex
    assert all(p.stat().st_size > 1000 for p in paths.values())


def test_rewriting_replaces_the_files(tmp_path):
    write_report(report("table6_005"), tmp_path, formats=("md",))
    write_report(report("table6_010"), tmp_path, formats=("md",))
    assert "α = 0.1" in (tmp_path / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("kwargs, match", [
    ({"formats": ("pdf",)}, "formats must be"),
    ({"formats": ()}, "formats must be"),
    ({"stem": "../up"}, "stem must be a plain file name"),
    ({"stem": ""}, "stem must be a plain file name"),
])
def test_bad_arguments(tmp_path, kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        write_report(report("table6_005"), tmp_path, **kwargs)
    assert list(tmp_path.iterdir()) == []   # checked before anything is written
