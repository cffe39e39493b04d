"""Run the tutorials' code and show the figures it draws on the site (an mkdocs hook).

Every ```python block of a ``tutorial-*.md`` page runs, in order, in one namespace and in a
scratch working folder (the tutorials write files). Each matplotlib figure a block leaves
open is saved as ``figures/<page>-<block>-<k>.png`` and shown on the page right after the
block, below the ```text block of its output if there is one. The figures are made at
build time, so the site never shows a figure the code no longer draws.

tests/architecture/test_docs.py runs the tutorials with :func:`run_tutorial` (checking what each block
prints) and then builds the site from the figures it made, named by the environment
variable ``OUTPERFORM_DOCS_FIGURES``, so the suite runs each tutorial once.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```(\w+)\n(.*?)^```[ \t]*$", re.S | re.M)
#: Folder of figures made beforehand by :func:`run_tutorial` (the tests set it).
FIGURES_ENV = "OUTPERFORM_DOCS_FIGURES"
#: Pixels per inch of the PNGs: sharp on a high-density screen, a few tens of kB each.
DPI = 144


def is_tutorial(src_uri: str) -> bool:
    return src_uri.startswith("tutorial-") and src_uri.endswith(".md")


@dataclass
class Block:
    """One ```python block of a page: its code, the ```text block right after it (None if
    there is none), and where its figures go in the page (offset after both)."""

    code: str
    expected: str | None
    end: int
    printed: str = ""
    figures: list[tuple[str, str]] = field(default_factory=list)   # (file name, alt text)


def blocks(text: str) -> list[Block]:
    """The ```python blocks of a Markdown page, in order."""
    fences = list(FENCE.finditer(text))
    out = []
    for n, m in enumerate(fences):
        if m.group(1) != "python":
            continue
        nxt = fences[n + 1] if n + 1 < len(fences) else None
        follows = (nxt is not None and nxt.group(1) == "text"
                   and not text[m.end():nxt.start()].strip())
        out.append(Block(m.group(2), nxt.group(2) if follows else None,
                         nxt.end() if follows else m.end()))
    return out


def run_tutorial(page: Path, figures: Path) -> list[Block]:
    """Run the python blocks of ``page`` in order; save their figures as PNGs in ``figures``.

    Each block's printed output goes to ``Block.printed`` and the names and alt texts of its
    figures to ``Block.figures``; ``figures/<page stem>.json`` lists them for the hook. The
    code runs in a temporary working folder, removed afterwards.

    Raises
    ------
    Exception
        Whatever a block raises (its traceback names the page and the block).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figures.mkdir(parents=True, exist_ok=True)
    namespace: dict = {"__name__": "__tutorial__"}
    code_blocks = blocks(page.read_text(encoding="utf-8"))
    plt.close("all")
    with tempfile.TemporaryDirectory(prefix="outperform-tutorial-") as scratch, \
            _working_folder(scratch):
        try:
            for n, block in enumerate(code_blocks, start=1):
                printed = io.StringIO()
                with contextlib.redirect_stdout(printed):
                    exec(compile(block.code, f"{page.name}, block {n}", "exec"), namespace)
                block.printed = printed.getvalue()
                for k, number in enumerate(plt.get_fignums(), start=1):
                    fig = plt.figure(number)
                    name = f"{page.stem}-{n}-{k}.png"
                    fig.savefig(figures / name, dpi=DPI, bbox_inches="tight")
                    block.figures.append((name, _alt_text(fig)))
                    plt.close(fig)
        finally:
            plt.close("all")
    manifest = {n: block.figures for n, block in enumerate(code_blocks) if block.figures}
    (figures / f"{page.stem}.json").write_text(json.dumps(manifest, indent=1),
                                               encoding="utf-8")
    return code_blocks


@contextlib.contextmanager
def _working_folder(path):
    # contextlib.chdir needs Python 3.11.
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def _alt_text(fig) -> str:
    """What the figure shows, from its titles, axis labels and texts."""
    parts = [fig.get_suptitle()] if hasattr(fig, "get_suptitle") else []
    for ax in fig.axes:
        texts = ", ".join(t.get_text() for t in ax.texts if t.get_text().strip())
        parts += [ax.get_title(), ax.get_xlabel() and f"{ax.get_xlabel()} on the x axis",
                  ax.get_ylabel() and f"{ax.get_ylabel()} on the y axis",
                  texts and f"labels {texts}"]
    text = "; ".join(" ".join(p.split()) for p in parts if p and p.strip())
    return "Figure drawn by the code above" + (f": {text}" if text else "")


def with_figures(markdown: str, manifest: dict) -> str:
    """``markdown`` with each block's figures (``{block index: [(file, alt)]}``) after it."""
    code_blocks = blocks(markdown)
    for index in sorted((int(i) for i in manifest), reverse=True):   # offsets stay valid
        images = "".join(f"\n\n![{alt.replace(']', ')')}](figures/{name})"
                         for name, alt in manifest[str(index)])
        at = code_blocks[index].end
        markdown = markdown[:at] + images + "\n" + markdown[at:]
    return markdown


# --- the mkdocs hook ------------------------------------------------------------------------

_manifests: dict[str, dict] = {}


def on_files(files, config):
    """Run the tutorials (or read the figures made by the tests) and add the PNGs."""
    from mkdocs.structure.files import File

    _manifests.clear()
    pages = [f for f in files.documentation_pages() if is_tutorial(f.src_uri)]
    made = os.environ.get(FIGURES_ENV)
    with contextlib.ExitStack() as stack:
        if made:
            folder = Path(made)
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(
                prefix="outperform-figures-")))
            for page in pages:
                run_tutorial(Path(page.abs_src_path), folder)
        for page in pages:
            listed = folder / f"{Path(page.src_uri).stem}.json"
            if not listed.exists():
                from mkdocs.exceptions import PluginError

                raise PluginError(f"{FIGURES_ENV}={made}: no {listed.name} there; run "
                                  f"{page.src_uri} with run_tutorial() first, or unset it.")
            manifest = json.loads(listed.read_text(encoding="utf-8"))
            _manifests[page.src_uri] = manifest
            for shown in manifest.values():
                for name, _alt in shown:
                    files.append(File.generated(config, f"figures/{name}",
                                                content=(folder / name).read_bytes()))
    return files


def on_page_markdown(markdown, page, config, files):
    manifest = _manifests.get(page.file.src_uri)
    return with_figures(markdown, manifest) if manifest else markdown
