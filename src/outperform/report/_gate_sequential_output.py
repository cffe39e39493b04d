"""A :class:`~outperform.results.SequentialGateResult` (``gate --sequential``) in every
format: text, Markdown (a CI job summary), HTML, LaTeX, JSON (kind ``"gate-sequential"``)
and JUnit XML."""
from __future__ import annotations

from ._document import Bullets, Document, Paragraph, Section
from ._gate_output import HEADLINE, junit_xml
from ._outputs import Output, document_markdown, rich_text
from ._sections import Table


def headline(result) -> str:
    margin = "no margin" if result.margin is None else f"margin {result.margin:g}"
    return (f"Sequential gate: {HEADLINE[result.verdict]} — candidate {result.candidate} "
            f"against baseline {result.baseline}, {margin}, one-sided α = {result.alpha:g} "
            "at every look")


def _interval(t) -> str:
    lo, hi = t.interval
    return f"[{lo:+.4f}, {hi:+.4f}]"


def _message(t) -> str:
    c = t.comparison
    when = (f"decided after {c.stopped_at:,} of {c.n_items:,} items" if c.stopped_at
            else f"not decided after {c.n_items:,} items")
    return (f"{t.metric}: {c.decision}, {when} (of {t.population:,} in the benchmark); "
            f"confidence sequence of candidate − baseline {_interval(t)}")


def sequential_table(result) -> Table:
    rows = [[t.task, t.metric, f"{t.n_items:,}", f"{t.population:,}", t.comparison.decision,
             f"{t.comparison.stopped_at:,}" if t.comparison.stopped_at else "—",
             _interval(t), t.verdict] for t in result.tasks]
    return Table("gate-sequential", "Per task: the betting confidence sequence of candidate − "
                 "baseline (positive favours the candidate) at the look that decided, or at "
                 "the last look", ["task", "metric", "items so far", "benchmark items",
                                   "decision", "decided at item", "interval", "verdict"],
                 rows, "frequentist")


def sequential_gate_output(result) -> Output:
    """The :class:`Output` of a sequential gate (kind ``"gate-sequential"``)."""
    table = sequential_table(result)
    lines = [f"Rule: {result.rule}"] + [f"{t.task}: {_message(t)}." for t in result.tasks]
    if result.order == "shuffle":
        lines.append("The items were taken in a random order (seeded), not the log's.")
    notes = list(result.warnings)
    blocks = (table, Bullets(tuple(lines)),
              *((Paragraph("Warnings: " + " ".join(notes), note=True),) if notes else ()))
    doc = Document("Sequential regression gate", headline(result),
                   (Section("gate", "", blocks),), numbered=False)
    from ._output_kinds import _plain_table

    text = rich_text(headline(result), _plain_table(table), *(f"- {x}" for x in lines),
                     width=140)
    return Output("gate-sequential", result.to_dict(), doc, text,
                  markdown=document_markdown(doc))


def sequential_gate_junit(result) -> str:
    """JUnit XML: one test case per task (a regression fails, an undecided task is skipped)."""
    props = {"verdict": result.verdict, "margin": result.margin, "alpha": result.alpha,
             "baseline": result.baseline, "candidate": result.candidate,
             "sequential": True}
    return junit_xml(f"sequential gate {result.candidate} vs {result.baseline}", props,
                     [(t.task, t.verdict, _message(t)) for t in result.tasks])
