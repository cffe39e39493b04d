"""Renderers of result objects: terminal (rich), Markdown, HTML, LaTeX, JSON, and report files.

Text, Markdown, HTML and LaTeX walk one :class:`Document` built from the report by
:func:`build_document` (its sections, each a title and blocks: :class:`Paragraph`,
:class:`Bullets`, :class:`Table`, :class:`Figure`); JSON is the schema-validated
``report.to_dict()``. Importing this package makes :func:`render_html_fragment` the HTML
display of every result object in Jupyter (see :mod:`outperform._display`).
"""
import json

from .. import _display
from ._document import Bullets, Document, Figure, Paragraph, Section, build_document
from ._figures import ReportFigure, report_figures, save_figure_file
from ._files import FORMATS, write_report
from ._html import render_html, render_html_fragment
from ._json_schema import load_schema, validate_report
from ._latex import latex_escape, render_latex
from ._markdown import render_markdown
from ._mlflow import log_mlflow
from ._methods import checklist_answer, methods_keys, methods_paragraph
from ._references import bibtex
from ._evals_output import evals_output, eval_warnings
from ._gate_output import gate_junit, gate_output, gate_plan_output
from ._gate_sequential_output import sequential_gate_junit, sequential_gate_output
from ._items import items_output, items_section
from ._output_kinds import (battle_lines, battles_output, battles_table, leaderboard_output, plan_output,
                            power_table_output, reports_output, runs_output, simulation_output)
from ._outputs import (KINDS, Output, load_output_schema, output_dict, render_output,
                       validate_output)
from ._results_table import results_table, results_table_output
from ._style_control import style_control_output
from ._sections import Table
from ._text import render_text


def render_json(report) -> str:
    """Return ``report.to_dict()`` as indented JSON (schema version in ``schema_version``)."""
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)


_display.register_html(render_html_fragment)

__all__ = ["FORMATS", "KINDS", "Output", "battle_lines", "battles_output", "battles_table",
           "bibtex", "checklist_answer", "style_control_output", "eval_warnings", "evals_output", "methods_keys",
           "methods_paragraph",
           "gate_junit", "gate_output", "gate_plan_output",
           "sequential_gate_junit", "sequential_gate_output",
           "leaderboard_output", "load_output_schema", "log_mlflow", "output_dict", "plan_output",
           "items_output", "items_section",
           "power_table_output", "render_output", "reports_output", "runs_output", "simulation_output",
           "validate_output", "Bullets", "Document", "Figure", "Paragraph", "ReportFigure", "Section",
           "Table", "build_document", "latex_escape", "load_schema", "render_html",
           "render_html_fragment", "render_json", "render_latex", "render_markdown",
           "render_text", "report_figures", "results_table", "results_table_output", "save_figure_file", "validate_report",
           "write_report"]
