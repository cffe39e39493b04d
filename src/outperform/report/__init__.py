"""Renderers of result objects: terminal (rich), Markdown, HTML, LaTeX, JSON, and report files.

Text, Markdown, HTML and LaTeX walk one :class:`Document` built from the report by
:func:`build_document` (its sections, each a title and blocks: :class:`Paragraph`,
:class:`Bullets`, :class:`Table`, :class:`Figure`); JSON is the schema-validated
``report.to_dict()``. Importing this package makes :func:`render_html_fragment` the HTML
display of every result object in Jupyter (see :mod:`outperform._display`).

The public names live in private modules, imported on first use (PEP 562): a command that
prints one kind of output (``outperform compare-evals``) loads its renderer only, not the
HTML, LaTeX, MLflow and figure modules of the others.
"""
import json

from .. import _display
from .._lazy import lazy_exports

#: public name -> private module that defines it (imported on first use).
_WHERE = {
    **dict.fromkeys(("Bullets", "Document", "Figure", "Paragraph", "Section", "build_document"),
                    "._document"),
    **dict.fromkeys(("ReportFigure", "report_figures", "save_figure_file"), "._figures"),
    **dict.fromkeys(("FORMATS", "write_report"), "._files"),
    **dict.fromkeys(("render_html", "render_html_fragment"), "._html"),
    **dict.fromkeys(("load_schema", "validate_report"), "._json_schema"),
    **dict.fromkeys(("latex_escape", "render_latex"), "._latex"),
    "render_markdown": "._markdown",
    "log_mlflow": "._mlflow",
    **dict.fromkeys(("checklist_answer", "methods_keys", "methods_paragraph"), "._methods"),
    "bibtex": "._references",
    **dict.fromkeys(("evals_output", "eval_warnings"), "._evals_output"),
    **dict.fromkeys(("gate_junit", "gate_output", "gate_plan_output"), "._gate_output"),
    **dict.fromkeys(("sequential_gate_junit", "sequential_gate_output"),
                    "._gate_sequential_output"),
    **dict.fromkeys(("items_output", "items_section"), "._items"),
    **dict.fromkeys(("battle_lines", "battles_output", "battles_table", "leaderboard_output",
                     "plan_output", "power_table_output", "reports_output", "runs_output",
                     "simulation_output"), "._output_kinds"),
    **dict.fromkeys(("KINDS", "Output", "load_output_schema", "output_dict", "render_output",
                     "validate_output"), "._outputs"),
    **dict.fromkeys(("results_table", "results_table_output"), "._results_table"),
    "style_control_output": "._style_control",
    "Table": "._sections",
    "render_text": "._text",
}

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())


def render_json(report) -> str:
    """Return ``report.to_dict()`` as indented JSON (schema version in ``schema_version``)."""
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)


def _html_fragment(result) -> str:
    # The Jupyter display: the HTML renderer (and what it imports) loads on the first display.
    from ._html import render_html_fragment
    return render_html_fragment(result)


_display.register_html(_html_fragment)

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
