"""Write a report in every format at once, with its figures (``outperform report``)."""
from __future__ import annotations

from pathlib import Path

from .._atomic import write_text
from .._validation import InvalidInputError
from ..results import ComparisonReport

FORMATS = ("html", "md", "tex", "json", "txt")


def write_report(report: ComparisonReport, out_dir, *,
                 formats=("html", "md", "tex", "json"), stem: str = "report",
                 seed: int | None = None, fragment: bool = False,
                 methods: bool = False) -> dict[str, Path]:
    """Write ``report`` to ``out_dir`` as HTML, Markdown, LaTeX, JSON (and text), with figures.

    Parameters
    ----------
    report : ComparisonReport
    out_dir : str or path-like
        Folder to write into; created if missing. Files of the same names are replaced,
        each atomically: a failure (a full disk) leaves the previous file, never a partial one.
    formats : sequence of {"html", "md", "tex", "json", "txt"}
        ``html``: one self-contained page (:func:`render_html`); ``md``: Markdown that shows
        the diagrams by their SVG files (:func:`render_markdown`); ``tex``:
        a standalone LaTeX document with booktabs tables (:func:`render_latex`); ``json``: the
        documented schema (:mod:`outperform.report._json_schema`); ``txt``: the terminal tables
        without colour.
    stem : str
        Name of the files without suffix: ``<stem>.html``, ``<stem>.tex``, ...; the
        critical-difference diagrams are ``<stem>-cd.pdf`` and ``<stem>-cd.svg`` (further
        diagrams add their post-hoc key, ``<stem>-cd-holm.pdf``), a leaderboard's rank-set
        plot is ``<stem>-ranks.pdf`` and ``.svg``, and the LaTeX document includes the PDFs.
        With ``methods=True`` and ``tex`` (``md``), the methods paragraph for a paper is
        written too, in the subfolder ``paper/``: ``paper/methods.tex``
        (``paper/methods.md``; :func:`methods_paragraph` and the NeurIPS checklist answer,
        :func:`checklist_answer`), with ``paper/references.bib``, the BibTeX entries it
        cites (:func:`bibtex`); for another ``stem`` they are ``paper/<stem>-methods.tex``,
        ...
    seed : int, optional
        The seed the analysis used, stated in the methods paragraph.
    methods : bool, default False
        Also write the methods paragraph, the checklist answer and ``references.bib`` (the
        command line's ``outperform report`` does).
    fragment : bool, default False
        ``<stem>.tex`` holds only the tables and figure environments, to ``\\input`` into a
        paper (:func:`render_latex` with ``fragment=True``), not a whole document.

    Returns
    -------
    dict of str to pathlib.Path
        The written files: by format (``"html"``, ``"md"``, ...) and, for the figures, by
        file name (``"report-cd.pdf"``, ...), in the order written.

    Raises
    ------
    InvalidInputError
        Unknown format, empty list of formats, or a ``stem`` that is not a plain file name.

    Examples
    --------
    >>> import tempfile
    >>> from outperform import compare
    >>> from outperform.data import load_demsar_table6
    >>> with tempfile.TemporaryDirectory() as d:
    ...     paths = write_report(compare(load_demsar_table6()), d, formats=("md", "json"))
    ...     sorted(p.name for p in paths.values())
    ['report-cd.pdf', 'report-cd.svg', 'report.json', 'report.md']
    """
    formats = tuple(formats)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise InvalidInputError(f"formats must be a non-empty selection of {FORMATS}, "
                                f"got {list(formats)}.")
    if not stem or Path(stem).name != stem or stem in (".", ".."):
        raise InvalidInputError(f"stem must be a plain file name without folders, got {stem!r}.")
    from . import render_json, render_markdown
    from ._figures import FILE_KINDS, file_paths, report_figures, save_figure_file
    from ._html import render_html
    from ._latex import render_latex

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    cd_pdf = out / f"{stem}-cd.pdf"
    figures = report_figures(report, kinds=FILE_KINDS)
    # The Markdown shows the diagrams by the SVG files written below, next to it.
    svg_names = {key: p.name for key, p in file_paths(figures, cd_pdf.with_suffix(".svg")).items()}
    renderers = {"html": render_html, "json": render_json,
                 "md": lambda r: render_markdown(r, figure_files=svg_names),
                 "tex": lambda r: render_latex(r, figure_path=cd_pdf, standalone=not fragment,
                                               fragment=fragment, label=stem),
                 "txt": _render_plain}
    for fmt in formats:
        path = out / f"{stem}.{fmt}"
        write_text(path, renderers[fmt](report))  # whole or not at all (a full disk)
        written[fmt] = path
    if methods:
        written.update(_write_methods(report, out, formats, stem, seed))
    for suffix in (".pdf", ".svg"):
        paths = file_paths(figures, cd_pdf.with_suffix(suffix))
        for fig, path in ((f, paths[f.key]) for f in figures):
            if not (suffix == ".pdf" and "tex" in formats):   # render_latex wrote the PDFs
                save_figure_file(fig, path, salt=stem)
            written[path.name] = path
    return written


def _render_plain(report: ComparisonReport) -> str:
    from ._text import render_text

    return render_text(report, width=110)


def _write_methods(report: ComparisonReport, out: Path, formats, stem: str,
                   seed) -> dict[str, Path]:
    """``paper/methods.tex`` / ``paper/methods.md`` (with ``tex`` / ``md``) and
    ``paper/references.bib``: what goes into a paper, apart from the report's own files."""
    from ._methods import checklist_answer, methods_paragraph, references_list
    from ._references import bibtex

    prefix = "" if stem == "report" else f"{stem}-"
    written: dict[str, Path] = {}
    out = out / "paper"
    out.mkdir(exist_ok=True)
    bib = out / f"{prefix}references.bib"
    if "tex" in formats:
        path = out / f"{prefix}methods.tex"
        write_text(path, f"% Methods paragraph written by outperform; needs \\usepackage{{natbib}} "
                         f"and \\bibliography{{{bib.stem}}}.\n"
                         + methods_paragraph(report, "latex", seed=seed) + "\n\n"
                         + checklist_answer(report, "latex") + "\n")
        written[path.name] = path
    if "md" in formats:
        path = out / f"{prefix}methods.md"
        write_text(path, methods_paragraph(report, "markdown", seed=seed) + "\n\n"
                   + checklist_answer(report, "markdown") + "\n\n## References\n\n"
                   + references_list(report) + "\n")
        written[path.name] = path
    if written:
        write_text(bib, bibtex(report))
        written[bib.name] = bib
    return written
