"""One document model for every rendering of a report.

:func:`build_document` turns a :class:`~outperform.results.ComparisonReport` into a
:class:`Document` once: sections in the order of Williams' (2026) §7 checklist, each a title
and a list of blocks (:class:`Paragraph`, :class:`Bullets`, :class:`~._sections.Table`,
:class:`Figure`) and optional subsections. The renderers (terminal text, Markdown, HTML,
LaTeX) only walk it, escape and lay it out, so every format shows the same sections, the
same tables and the same words. JSON is not a rendering of the document but the
schema-validated serialisation of the result objects (``report.to_dict()``).

:func:`result_document` does the same for one result object shown alone (the Jupyter display
of a test's result).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union

from ..results import (BayesianResult, ComparisonReport, FrequentistResult, Leaderboard,
                       PairwiseResult)
from ._figures import (ReportFigure, bayesian_figures, leaderboard_figures, posthoc_figures,
                       report_figures)
from ._best import best_intro, best_table
from ._leaderboard import leaderboard_bullets, leaderboard_intro, leaderboard_table
from ._pairs import pair_tables, pairwise_tables
from ._runs import runs_blocks
from ._sections import (
    FREQUENTIST_HEADER,
    THINK,
    Table,
    bayesian_header,
    bayesian_row,
    bayesian_table,
    design_text,
    frequentist_row,
    frequentist_table,
    letters_text,
    metric_text,
    question_text,
    settings_text,
    summary_table,
    test_notes,
    without_empty_columns,
)

# Williams (2026) §7, in order: (key, title) of the sections of every report.
SECTIONS = (
    ("question", "Question"),
    ("metric", "Loss or metric"),
    ("design", "Design: fixed and random factors"),
    ("tests", "Tests and their assumptions"),
    ("inferences", "Inferences"),
    ("warnings", "Warnings"),
)


@dataclass(frozen=True)
class Paragraph:
    """Running text.

    ``lead`` is a run-in title set in bold before the text; ``note`` sets a side remark in a
    muted style; ``see`` is the key of a section the paragraph points the reader to, whose
    title the renderers append (a link in HTML).
    """

    text: str
    lead: str = ""
    note: bool = False
    see: str | None = None


@dataclass(frozen=True)
class Bullets:
    """A bullet list; ``kind`` is ``"plain"``, ``"conclusions"`` or ``"warnings"`` (each
    renderer styles the warnings as such)."""

    items: tuple[str, ...]
    kind: str = "plain"


@dataclass(frozen=True)
class Figure:
    """A figure of the report, described but not drawn (:class:`~._figures.ReportFigure`)."""

    figure: ReportFigure


Block = Union[Paragraph, Bullets, Table, Figure]


@dataclass(frozen=True)
class Section:
    """A titled part of a document: its blocks, then its subsections (an empty ``title`` is
    a part without heading)."""

    key: str
    title: str
    blocks: tuple[Block, ...] = ()
    subsections: tuple[Section, ...] = ()


@dataclass(frozen=True)
class Document:
    """What every format of a report shows.

    Attributes
    ----------
    title : str
        E.g. "Q3: comparison of learning algorithms across multiple tasks".
    headline : str
        One line: what was compared, the metric and its direction, α.
    sections : tuple of Section
        Numbered by the renderers (1. Question, ...) when ``numbered``.
    closing : str
        A last remark (Williams' "THINK!").
    """

    title: str
    headline: str
    sections: tuple[Section, ...]
    closing: str = ""
    numbered: bool = True

    def walk(self) -> Iterator[tuple[int, Section]]:
        """Every section and subsection, depth first, with its depth (0 for a section)."""
        def visit(section, depth):
            yield depth, section
            for sub in section.subsections:
                yield from visit(sub, depth + 1)
        for section in self.sections:
            yield from visit(section, 0)

    def blocks(self) -> Iterator[Block]:
        """Every block, in reading order."""
        for _, section in self.walk():
            yield from section.blocks

    def tables(self) -> list[Table]:
        return [b for b in self.blocks() if isinstance(b, Table)]

    def figures(self) -> list[ReportFigure]:
        return [b.figure for b in self.blocks() if isinstance(b, Figure)]

    def title_of(self, key: str) -> str:
        """Title of the section or subsection ``key``."""
        return next(s.title for _, s in self.walk() if s.key == key)


def headline(report: ComparisonReport) -> str:
    """One line saying what was compared."""
    direction = "higher is better" if report.higher_is_better else "lower is better"
    k, q = len(report.models), report.question
    what = (f"{k} models over {report.n_tasks} data sets" if q == "Q3"
            else f"{k} models on one task" if q == "Q2" else f"{k} predictors on one test set")
    return f"{report.question}: {what} — metric {report.metric} ({direction}), α = {report.alpha}"


def build_document(report: ComparisonReport, *, figures: bool = True) -> Document:
    """The document of ``report``: every section, table and figure any format shows.

    ``figures=False`` leaves the figures out (for the formats that draw none); the figures are
    only described, so building the document never imports matplotlib.
    """
    q_title, q_text = question_text(report)
    figs = report_figures(report) if figures else []
    notes = Table("assumptions", "Tests run and what they assume", ["test", "role", "assumes"],
                  [list(n) for n in test_notes(report)], "summary")
    tests: list[Block] = [Paragraph(report.rationale), Bullets(tuple(settings_text(report))),
                          notes]
    if report.warnings:
        tests.append(Paragraph(f"{len(report.warnings)} warning(s) on assumptions and data: "
                               "see", note=True, see="warnings"))
    freq: list[Block] = [t for t in (frequentist_table(report),) if t]
    bayes: list[Block] = [t for t in (bayesian_table(report),) if t]
    for t in pairwise_tables(report):
        (bayes if t.view == "bayesian" else freq).append(t)
    freq += [Figure(f) for f in figs if f.kind == "cd"]
    bayes += [Figure(f) for f in figs if f.kind not in ("cd", "ranks")]
    views = tuple(Section(key, title, tuple(blocks)) for key, title, blocks in
                  (("frequentist", "Frequentist view", freq), ("bayesian", "Bayesian view", bayes))
                  if blocks)
    if report.best is not None:
        views += (Section("best", "Comparison with the best (Hsu's MCB)",
                          (Paragraph(best_intro(report.best)),
                           best_table(report.best, report.metric))),)
    if report.leaderboard is not None:
        views += (_leaderboard_section(report.leaderboard,
                                       [f for f in figs if f.kind == "ranks"]),)
    # a table of runs (seeds) x tasks: rliable's aggregates; details["runs"] is the dict an
    # older caller attached
    runs = report.runs.to_dict() if report.runs is not None else report.details.get("runs")
    if runs:
        text, tables = runs_blocks(runs)
        views += (Section("runs", "Runs over tasks: interval estimates",
                          (Bullets(tuple(text)), *tables)),)
    if (rep := report.details.get("replicability")):
        views += (replicability_section(rep),)
    content = {
        "question": (Paragraph(q_text, lead=q_title),),
        "metric": (Paragraph(metric_text(report)),),
        "design": (Bullets(tuple(design_text(report))),),
        "tests": tuple(tests),
        "inferences": (Bullets(tuple(report.conclusions), "conclusions"), summary_table(report),
                       *((Paragraph(text),) if (text := letters_text(report)) else ())),
        "warnings": ((Bullets(tuple(report.warnings), "warnings"),) if report.warnings
                     else (Paragraph("None."),)),
    }
    sections = tuple(Section(key, title, content[key], views if key == "inferences" else ())
                     for key, title in SECTIONS)
    return Document(q_title, headline(report), sections, THINK)


def replicability_section(rep: dict) -> Section:
    """Replicability over data sets (Dror et al. 2017): how it was run, each data set's
    one-sided p-values and Holm's verdicts, and k̂ of each direction."""
    a, b = rep["a"], rep["b"]
    ab, ba = rep["a_better"], rep["b_better"]
    rows = [[x["name"], f"{x['pvalue']:.4g}", "yes" if x["holm_rejected"] else "no",
             f"{y['pvalue']:.4g}", "yes" if y["holm_rejected"] else "no"]
            for x, y in zip(ab["data_sets"], ba["data_sets"])]
    table = Table("replicability", f"Per data set: {rep['test']} p-values and Holm's verdict "
                  f"at α = {ab['alpha']:g} each way",
                  ["data set", f"p ({a} better)", "Holm", f"p ({b} better)", "Holm"], rows,
                  "summary")
    intro = (f"Replicability analysis (Dror, Baumer, Bogomolov & Reichart 2017): each data set "
             f"tested on its own folds ({rep['test']}); k, a lower bound on the number of data "
             f"sets where a model is better, from the partial conjunction p-values by "
             f"Bonferroni (any dependence) and by Fisher (independent data sets). Each "
             f"direction at α/2 = {ab['alpha']:g}. k for {a} better: {ab['k_bonferroni']} "
             f"(Bonferroni), {ab['k_fisher']} (Fisher); for {b} better: {ba['k_bonferroni']} "
             f"(Bonferroni), {ba['k_fisher']} (Fisher), of {ab['n_data_sets']} data sets.")
    return Section("replicability", "Replicability over data sets", (Paragraph(intro), table))


def _leaderboard_section(board, figs: list[ReportFigure]) -> Section:
    """The leaderboard of the inferences: how it was made, its table, top-k sets, figure."""
    blocks = (Paragraph(leaderboard_intro(board)), leaderboard_table(board),
              Bullets(tuple(leaderboard_bullets(board))), *(Figure(f) for f in figs))
    return Section("leaderboard", "Leaderboard: rank confidence sets and tiers", blocks)


def result_document(result, *, figures: bool = True) -> Document:
    """The document of one result object shown alone: its table and its figures.

    Parameters
    ----------
    result : FrequentistResult, BayesianResult, PairwiseResult, Leaderboard, ComparisonReport
        or any result with ``to_frame()``
        A report gives :func:`build_document`; a result of another class its
        ``to_frame()`` table and its conclusions, warnings and notes. A two-model result names its models "A"
        and "B", as its fields do; a post-hoc result has no summary means, so its pairs are
        put better first only by the test's own estimate (average ranks, rank-biserial
        correlations, posterior probabilities). A leaderboard gives the leaderboard section
        of a report, with its rank-set plot.

    Raises
    ------
    TypeError
        Not a result (no ``to_frame``).
    """
    if isinstance(result, ComparisonReport):
        return build_document(result, figures=figures)
    if isinstance(result, Leaderboard):
        figs = leaderboard_figures(result) if figures else []
        return Document("", "", (_leaderboard_section(result, figs),), numbered=False)
    figs: list[ReportFigure] = []
    if isinstance(result, FrequentistResult):
        header, rows = without_empty_columns(FREQUENTIST_HEADER, [frequentist_row(result)])
        tables = [Table("result", "Frequentist test", header, rows, "frequentist")]
    elif isinstance(result, BayesianResult):
        header, rows = without_empty_columns(bayesian_header("A", "B"),
                                             [bayesian_row(result, "A", "B")])
        title = f"Bayesian test (posterior probabilities; decision threshold {result.threshold:g})"
        tables = [Table("result", title, header, rows, "bayesian")]
        figs = bayesian_figures("result", result) if figures else []
    elif isinstance(result, PairwiseResult):
        tables = pair_tables("result", result)
        figs = posthoc_figures("result", result) if figures else []
    elif callable(getattr(result, "to_frame", None)):
        return _frame_document(result)
    else:
        raise TypeError(f"no document for a {type(result).__name__}: expected a result of "
                        "outperform.results.")
    section = Section("result", "", (*tables, *(Figure(f) for f in figs)))
    return Document("", "", (section,), numbered=False)


def _frame_cell(value) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _frame_document(result) -> Document:
    """Any other result (runs x tasks, ratings, evaluation logs, plans...): its
    ``to_frame()`` as one table, then its conclusions, warnings and notes as bullets."""
    frame = result.to_frame()
    rows = [[_frame_cell(v) for v in row] for row in frame.itertuples(index=False)]
    blocks: list[Block] = [Table("result", type(result).__name__,
                                 [str(c) for c in frame.columns], rows, "summary")]
    for kind in ("conclusions", "warnings", "notes"):
        if kind == "conclusions" and "conclusion" in frame.columns:
            continue    # already a column of the table
        items = tuple(getattr(result, kind, ()) or ())
        if items:
            blocks.append(Bullets(items, "warnings" if kind == "warnings" else "plain"))
    return Document("", "", (Section("result", "", tuple(blocks)),), numbered=False)


def marked_rows(t: Table, marker: str = " ←") -> tuple[str, list[list[str]]]:
    """Title and rows of ``t`` for plain text: ``marker`` after the test the decision rests on,
    and a title that says so only when a row carries it."""
    rows = [[r[0] + marker] + r[1:] if n in t.marked else list(r) for n, r in enumerate(t.rows)]
    title = t.title + (f" ({marker.strip()} the test that decides)" if t.marked else "")
    return title, rows


def is_text(cell: str) -> bool:
    """Whether a cell holds words (names, decisions) rather than a number (inf included)."""
    return any(ch.isalpha() for ch in
               cell.replace("e-", "").replace("e+", "").replace("inf", ""))


def text_columns(t: Table) -> list[bool]:
    """For each column of ``t``: whether it holds words (left-aligned) or numbers (right)."""
    return [any(is_text(row[c]) for row in t.rows) for c in range(len(t.header))]
