"""The documentation's code runs: every ```python block of a tutorial is executed, in order,
and the ```text block that follows it must be exactly what it prints. The figures the code
draws are shown on the built site (docs/hooks/tutorials.py, the mkdocs hook that runs the
same code at build time)."""
from __future__ import annotations

import json
import os
import re
import sys

import pytest

from _docs_hook import lines, load_hook
from _paths import ROOT

DOCS = ROOT / "docs"
TUTORIALS = sorted(DOCS.glob("tutorial-*.md"))


hook = load_hook()


@pytest.fixture(scope="module")
def run_page(tmp_path_factory):
    """run_page(page) -> its blocks, run once per module; figures in run_page.folder."""
    folder = tmp_path_factory.mktemp("figures")
    done: dict = {}

    def run(page):
        if page not in done:
            done[page] = hook.run_tutorial(page, folder)
        return done[page]

    run.folder = folder
    return run


def test_every_tutorial_is_found():
    assert [p.name for p in TUTORIALS] == ["tutorial-gate.md", "tutorial-items.md",
                                           "tutorial-leaderboards.md",
                                           "tutorial-q1.md",
                                           "tutorial-q2.md", "tutorial-q3.md",
                                           "tutorial-runs.md", "tutorial-simulations.md"]
    assert all(hook.is_tutorial(p.name) for p in TUTORIALS)


@pytest.mark.parametrize("page", TUTORIALS, ids=lambda p: p.stem)
@pytest.mark.slow
def test_tutorial_code_runs_and_prints_what_the_page_says(page, run_page):
    code_blocks = run_page(page)
    assert code_blocks, f"{page.name} has no python block"
    for n, block in enumerate(code_blocks, start=1):
        if block.expected is not None:
            assert lines(block.printed) == lines(block.expected), f"{page.name}, block {n}"


@pytest.mark.parametrize("page", TUTORIALS, ids=lambda p: p.stem)
@pytest.mark.slow
def test_every_figure_a_tutorial_saves_is_shown(page, run_page):
    """Each block that saves a figure (``.savefig(``) leaves exactly that figure for the site."""
    for n, block in enumerate(run_page(page), start=1):
        saved = len(re.findall(r"\.savefig\(", block.code))
        assert len(block.figures) == saved, f"{page.name}, block {n}"
        for name, alt in block.figures:
            png = run_page.folder / name
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
            assert alt.startswith("Figure drawn by the code above: "), alt


def test_figures_go_below_their_block_and_its_output():
    page = "intro\n```python\nprint(1)\n```\n\n```text\n1\n```\nthen\n```python\nx = 2\n```\nend\n"
    shown = hook.with_figures(page, {"0": [["p-1-1.png", "a plot"]],
                                     "1": [["p-2-1.png", "b"], ["p-2-2.png", "c"]]})
    assert shown == ("intro\n```python\nprint(1)\n```\n\n```text\n1\n```\n\n"
                     "![a plot](figures/p-1-1.png)\n\nthen\n```python\nx = 2\n```\n\n"
                     "![b](figures/p-2-1.png)\n\n![c](figures/p-2-2.png)\n\nend\n")


def _run_tables_page(with_autorank: bool) -> list:
    """Run docs/tables.md's python blocks in order, in one namespace and a scratch folder
    (the autorank block only ``with_autorank``: autorank is an optional peer)."""
    import contextlib
    import io
    import tempfile

    code_blocks = hook.blocks((DOCS / "tables.md").read_text(encoding="utf-8"))
    namespace: dict = {"__name__": "__tables__"}
    ran = []
    with tempfile.TemporaryDirectory() as scratch, hook._working_folder(scratch):
        for n, block in enumerate(code_blocks, start=1):
            if "autorank" in block.code and not with_autorank:
                continue
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exec(compile(block.code, f"tables.md, block {n}", "exec"), namespace)
            block.printed = printed.getvalue()
            ran.append((n, block))
    return ran


def test_tables_page_code_prints_what_the_page_says():
    """docs/tables.md (issue 28): outperform's tables, run as written, print what it shows."""
    ran = _run_tables_page(with_autorank=False)
    assert len(ran) >= 2
    for n, block in ran:
        assert block.expected is not None, f"tables.md, block {n} shows no output"
        assert lines(block.printed) == lines(block.expected), f"tables.md, block {n}"


@pytest.mark.slow
def test_tables_page_autorank_side_by_side():
    """The autorank part of docs/tables.md, when autorank is installed (an optional peer)."""
    pytest.importorskip("autorank")
    ran = _run_tables_page(with_autorank=True)
    side = [(n, b) for n, b in ran if "autorank" in b.code]
    assert side, "tables.md has no autorank block"
    for n, block in side:
        assert lines(block.printed) == lines(block.expected), f"tables.md, block {n}"


def test_which_test_page_mirrors_compare():
    """The page names every option compare() accepts and the thresholds it uses."""
    from outperform.compare import _q1 as q1
    from outperform.compare import _q2 as q2
    from outperform.compare import _q3 as q3
    from outperform.compare import _q3_bayes as q3_bayes

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


def test_api_page_names_each_object_by_its_public_path():
    """`::: outperform.pkg.name` with name in the package's __all__; a private path only with
    a heading that gives the public one (plot's names are lazy, which griffe cannot follow)."""
    import importlib

    page = (DOCS / "api.md").read_text(encoding="utf-8")
    entries = re.findall(r"^::: (\S+)\n((?:    .*\n)*)", page, flags=re.M)
    assert len(entries) > 20
    for path, options in entries:
        heading = re.search(r"^      heading: (\S+)$", options, flags=re.M)
        public = heading.group(1) if heading else path
        package, name = public.rsplit(".", 1)
        assert not any(part.startswith("_") for part in public.split(".")), public
        module = importlib.import_module(package)
        assert name in module.__all__, public
        if heading:   # the documented object is the public one
            defining, attr = path.rsplit(".", 1)
            assert getattr(importlib.import_module(defining), attr) is getattr(module, name)


@pytest.mark.slow
def test_site_builds(tmp_path, run_page):
    """`mkdocs build --strict` on mkdocs-material, with every tutorial figure on its page."""
    pytest.importorskip("mkdocstrings", reason="the docs build needs mkdocs and mkdocstrings")
    pytest.importorskip("material", reason="the docs build needs mkdocs-material")
    import subprocess

    for page in TUTORIALS:   # the figures, made once (the tutorial tests above made them)
        run_page(page)
    env = os.environ | {hook.FIGURES_ENV: str(run_page.folder), "NO_MKDOCS_2_WARNING": "1"}
    site = tmp_path / "site"
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                          "-f", str(DOCS.parent / "mkdocs.yml"), "-d", str(site)],
                         capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    assert (site / "api" / "index.html").read_text().count("doc-heading") > 20
    assert 'name="generator" content="mkdocs-' in (site / "index.html").read_text()
    assert "assets/stylesheets/main" in (site / "index.html").read_text()   # material's
    assert not (site / "hooks").exists()
    shown = 0
    for page in TUTORIALS:
        html = (site / page.stem / "index.html").read_text(encoding="utf-8")
        listed = json.loads((run_page.folder / f"{page.stem}.json").read_text())
        for name, _alt in (f for figures in listed.values() for f in figures):
            assert (site / "figures" / name).read_bytes() == (run_page.folder / name).read_bytes()
            assert f'src="../figures/{name}"' in html, (page.name, name)
            shown += 1
    assert shown >= 4   # Q1 posterior, Q2 posterior, Q3 CD diagram, power curves


def test_evaluation_logs_judged_section_prints_what_the_page_says():
    """docs/evaluation-logs.md, "Judged evaluations" (issue 30): its blocks, run in order in
    one namespace, print what the page shows."""
    import contextlib
    import io

    text = (DOCS / "evaluation-logs.md").read_text(encoding="utf-8")
    section = text.split("## Judged evaluations", 1)[1].split("\n## ", 1)[0]
    namespace: dict = {"__name__": "__judges__"}
    ran = 0
    for n, block in enumerate(hook.blocks(section), start=1):
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block.code, f"evaluation-logs.md, judged block {n}", "exec"),
                 namespace)
        assert block.expected is not None, f"judged block {n} shows no output"
        assert lines(printed.getvalue()) == lines(block.expected), f"judged block {n}"
        ran += 1
    assert ran == 3
