"""Every result other than a ComparisonReport in every format: text, Markdown, HTML, LaTeX, JSON.

An :class:`Output` is what one command shows of one result: its JSON ``payload`` (with
``schema_version`` and ``kind``, validated by :func:`validate_output` against
``output.schema.json`` shipped beside this module), a :class:`Document` of sentences and
tables that the Markdown, HTML and LaTeX renderers walk, and its terminal text.
:func:`render_output` returns the one asked for, as a string.
"""
from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from html import escape as html_escape

from .._validation import InvalidInputError
from ..results import SCHEMA_VERSION
from ._document import Bullets, Document, Paragraph, Section
from ._sections import Table

#: What ``kind`` an output's JSON names; ``output.schema.json`` has one definition of each.
KINDS = ("leaderboard", "battles", "evals", "runs", "power", "assurance", "power-table",
         "simulation", "reports", "results_table", "gate", "gate-plan",
         "gate-sequential", "items", "gold-labels")
FORMATS = ("text", "markdown", "json", "html", "latex")


@dataclass(frozen=True)
class Output:
    """One result as a command shows it.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    payload : dict or callable
        The result's JSON-safe dictionary (``to_dict()`` and what the command adds), or a
        function returning it (computed only for JSON: some fields cost imports).
    document : Document
        Its sentences and tables, for Markdown, HTML and LaTeX.
    text : str
        Its terminal text.
    markdown, html, latex : str or None
        A rendering of its own in that format (else the document's).
    """

    kind: str
    payload: object
    document: Document
    text: str
    markdown: str | None = None
    html: str | None = None
    latex: str | None = None


def _safe(value):
    """JSON-safe: NaN and infinities as None (JSON has no such numbers)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_safe(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return _safe(value.item())          # numpy scalars
    return value


def output_dict(output: Output) -> dict:
    """``{"schema_version": ..., "kind": ..., **payload}``, JSON-safe."""
    payload = output.payload() if callable(output.payload) else output.payload
    return {"schema_version": SCHEMA_VERSION, "kind": output.kind, **_safe(payload)}


def render_output(output: Output, fmt: str = "text", *, fragment: bool = False) -> str:
    """``output`` as ``fmt`` (text, markdown, json, html or latex), a string.

    ``fragment=True`` with ``latex``: only the table environments, after a comment naming the
    ``\\usepackage`` lines they need (:func:`outperform.report._latex.floats_only`); other
    formats ignore it.

    Raises
    ------
    InvalidInputError
        ``fmt`` is not one of :data:`FORMATS`.
    """
    if fmt == "text":
        return output.text
    if fmt == "json":
        return json.dumps(output_dict(output), indent=1, ensure_ascii=False, allow_nan=False)
    if fmt == "markdown":
        return output.markdown if output.markdown is not None else document_markdown(
            output.document)
    if fmt == "html":
        return output.html if output.html is not None else document_html(output.document)
    if fmt == "latex":
        return (output.latex if output.latex is not None
                else document_latex(output.document, fragment=fragment))
    raise InvalidInputError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}.")


# -- generic renderers of a Document -------------------------------------------------------

def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown_table(t: Table, level: int = 3) -> str:
    """A titled Markdown table."""
    lines = [f"{'#' * level} {t.title}", "", "| " + " | ".join(map(_md_cell, t.header)) + " |",
             "|" + "---|" * len(t.header)]
    lines += ["| " + " | ".join(map(_md_cell, r)) + " |" for r in t.rows]
    return "\n".join(lines)


def document_markdown(doc: Document) -> str:
    """Markdown of a document: a ``#`` title, ``##`` sections, paragraphs, lists, tables."""
    parts = [f"# {doc.title}"] + ([f"*{doc.headline}*"] if doc.headline else [])
    for depth, section in doc.walk():
        if section.title:
            parts.append(f"{'#' * (2 + depth)} {section.title}")
        for block in section.blocks:
            if isinstance(block, Paragraph):
                parts.append(f"*{block.text}*" if block.note else block.text)
            elif isinstance(block, Bullets):
                parts.append("\n".join(f"- {item}" for item in block.items))
            elif isinstance(block, Table):
                parts.append(markdown_table(block, 3 + depth))
    return "\n\n".join(parts) + "\n"


def document_html(doc: Document) -> str:
    """One self-contained HTML page of a document."""
    from ._html import _CSS, _body

    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html_escape(doc.title)}</title><style>{_CSS}</style></head><body><main>"
            f"<header><h1>{html_escape(doc.title)}</h1>"
            f"<p class=\"lead\">{html_escape(doc.headline)}</p></header>\n"
            f"{_body(doc, lambda fig: '')}\n<footer><p>JSON schema version {SCHEMA_VERSION}."
            "</p></footer></main></body></html>\n")


def document_latex(doc: Document, fragment: bool = False) -> str:
    """A LaTeX fragment of a document (needs ``\\usepackage{booktabs,array,tabularx}``);
    ``fragment=True``: its tables only."""
    from ._latex import _block, _height, floats_only, kept_in_order, latex_escape, needspace

    if fragment:
        return floats_only(doc, lambda block: _block(doc, block, {}, "outperform"))

    parts = [f"% {latex_escape(doc.title)}"] + ([f"% {latex_escape(doc.headline)}"]
                                                 if doc.headline else [])
    for depth, section in doc.walk():
        if section.title:
            if section.blocks and isinstance(section.blocks[0], Table):
                parts.append(needspace(_height(section.blocks[0])))   # heading with its table
            parts.append(f"\\{'sub' * depth}paragraph{{{latex_escape(section.title)}.}}\\mbox{{}}")
        parts += kept_in_order(section, lambda block: _block(doc, block, {}, "outperform"))
    return "\n\n".join(p for p in parts if p) + "\n"


def rich_text(*renderables, width: int | None = None) -> str:
    """What rich would print of ``renderables`` on a terminal ``width`` columns wide (80 by
    default), as plain text."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width or 80, force_terminal=False, no_color=True,
                      highlight=False, soft_wrap=False)
    for item in renderables:
        if isinstance(item, str):
            console.print(item, soft_wrap=True, markup=False)
        else:
            console.print(item)
    return buffer.getvalue().rstrip("\n")


# -- the shipped schema --------------------------------------------------------------------

@lru_cache(maxsize=1)
def load_output_schema() -> dict:
    """The JSON schema of every command output other than a report (``output.schema.json``)."""
    return json.loads(files("outperform.report").joinpath("output.schema.json")
                      .read_text(encoding="utf-8"))


def validate_output(data) -> dict:
    """Check the JSON of a command's output against the schema shipped in the package.

    Parameters
    ----------
    data : dict or str
        JSON text or its dictionary: a report (no ``kind``; checked by
        :func:`validate_report`) or an output of one of :data:`KINDS`.

    Returns
    -------
    dict
        The validated dictionary.

    Raises
    ------
    InvalidInputError
        The dictionary does not follow the schema (the first offending field is named).
    ImportError
        The ``jsonschema`` package is not installed.
    """
    from ._json_schema import validate_report

    if isinstance(data, str):
        data = json.loads(data)
    if "kind" not in data:
        return validate_report(data)
    try:
        import jsonschema
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("validate_output needs the jsonschema package: "
                          "pip install jsonschema") from err
    validator = jsonschema.Draft202012Validator(load_output_schema())
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None and data.get("kind") == "reports":
        for rep in data["reports"].values():     # each follows the report schema
            validate_report(rep)
    if error is None and data.get("kind") == "evals":
        # every report inside follows the report schema
        for rep in [*(r for reps in data["per_task"].values() for r in reps),
                    data["across_tasks"], data["hierarchical"]]:
            if rep is not None:
                validate_report(rep)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise InvalidInputError(f"the {data.get('kind')} output does not follow the JSON schema "
                                f"at {where}: {error.message}")
    return data


def simple_document(title: str, lines, tables=(), bullets=()) -> Document:
    """A document of one untitled section: paragraphs, then tables, then a list."""
    blocks = (*(Paragraph(x) for x in lines), *tables,
              *((Bullets(tuple(bullets)),) if bullets else ()))
    return Document(title, "", (Section("result", "", blocks),), numbered=False)
