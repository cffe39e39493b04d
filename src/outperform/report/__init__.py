"""Renderers of result objects: terminal (rich), Markdown, HTML, LaTeX, JSON, and report files."""
import json

from ._figures import ReportFigure, report_figures, save_figure_file
from ._files import FORMATS, write_report
from ._html import render_html
from ._json_schema import load_schema, validate_report
from ._latex import latex_escape, render_latex
from ._markdown import render_markdown
from ._text import render_text


def render_json(report) -> str:
    """Return ``report.to_dict()`` as indented JSON (schema version in ``schema_version``)."""
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)


__all__ = ["FORMATS", "ReportFigure", "latex_escape", "load_schema", "render_html", "render_json", "render_latex",
           "render_markdown", "render_text", "report_figures", "save_figure_file",
           "validate_report", "write_report"]
