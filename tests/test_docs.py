"""The documentation's code runs: every ```python block of a tutorial is executed, in order,
and the ```text block that follows it must be exactly what it prints."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import matplotlib.pyplot as plt
import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
TUTORIALS = sorted(DOCS.glob("tutorial-*.md"))
FENCE = re.compile(r"^```(\w+)\n(.*?)^```[ \t]*$", re.S | re.M)


def blocks(page: Path) -> list[tuple[str, str | None]]:
    """(code, expected output or None) of each python block of a Markdown page."""
    text = page.read_text(encoding="utf-8")
    fences = list(FENCE.finditer(text))
    out = []
    for n, m in enumerate(fences):
        if m.group(1) != "python":
            continue
        nxt = fences[n + 1] if n + 1 < len(fences) else None
        follows = (nxt is not None and nxt.group(1) == "text"
                   and not text[m.end():nxt.start()].strip())
        out.append((m.group(2), nxt.group(2) if follows else None))
    return out


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def test_every_tutorial_is_found():
    assert [p.name for p in TUTORIALS] == ["tutorial-q1.md", "tutorial-q2.md", "tutorial-q3.md",
                                           "tutorial-runs.md", "tutorial-simulations.md"]


@pytest.mark.parametrize("page", TUTORIALS, ids=lambda p: p.stem)
def test_tutorial_code_runs_and_prints_what_the_page_says(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # tutorials write files (figures, reports) to the cwd
    namespace: dict = {"__name__": "__tutorial__"}
    code_blocks = blocks(page)
    assert code_blocks, f"{page.name} has no python block"
    try:
        for n, (code, expected) in enumerate(code_blocks, start=1):
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exec(compile(code, f"{page.name}, block {n}", "exec"), namespace)
            if expected is not None:
                assert _lines(printed.getvalue()) == _lines(expected), f"{page.name}, block {n}"
    finally:
        plt.close("all")


def test_which_test_page_mirrors_compare():
    """The page names every option compare() accepts and the thresholds it uses."""
    from outperform.compare import _q1 as q1, _q2 as q2, _q3 as q3, _q3_bayes as q3_bayes

    page = (DOCS / "which-test.md").read_text(encoding="utf-8")
    for option in q3.POSTHOC:
        assert f"`{option}`" in page, option
    for loss in q1.LOSSES:
        assert f"`{loss}`" in page, loss
    assert f"{q3.MANY_TIES:.0%} of data sets" in page
    assert f"p < {q1.NORMALITY_ALPHA}" in page
    assert f"{q3_bayes.ACCURACY_ROPE} for\nscores within [0, 1]" in page
    assert f"{q2.ROPE_SD_FRACTION} × the standard deviation of the fold" in page


def test_reports_page_documents_every_json_field():
    from outperform.report import load_schema

    page = (DOCS / "reports.md").read_text(encoding="utf-8")
    for field in load_schema()["properties"]:
        assert f"| `{field}` |" in page, field


@pytest.mark.slow
def test_site_builds(tmp_path):
    pytest.importorskip("mkdocstrings", reason="the docs build needs mkdocs and mkdocstrings")
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                          "-f", str(DOCS.parent / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert (tmp_path / "site" / "api" / "index.html").read_text().count("doc-heading") > 20
