"""A :class:`~outperform.results.GateResult` in every format: text, Markdown (a CI job
summary), HTML, LaTeX, JSON (kind ``"gate"``) and JUnit XML (one test case per task: a
failure for a regression, skipped for an inconclusive task), and the output of
``outperform gate --plan``."""
from __future__ import annotations

from xml.etree import ElementTree as ET

from ._document import Bullets, Document, Paragraph, Section
from ._outputs import Output, document_markdown, rich_text, simple_document
from ._sections import Table

HEADLINE = {"pass": "PASS", "regression": "REGRESSION", "inconclusive": "INCONCLUSIVE"}


def _num(v, spec=".4f") -> str:
    return "—" if v is None else format(v, spec)


def _p(v) -> str:
    return "—" if v is None else ("< 1e-300" if v == 0 else f"{v:.3g}")


def headline(result) -> str:
    """One line: the verdict, the runs, the margin and α."""
    margin = "no margin" if result.margin is None else f"margin {result.margin:g}"
    return (f"Gate: {HEADLINE[result.verdict]} — candidate {result.candidate} against baseline "
            f"{result.baseline}, {margin}, one-sided α = {result.alpha:g}, "
            f"{len(result.tasks)} task{'s' if len(result.tasks) > 1 else ''}")


def gate_table(result) -> Table:
    """One row per task (and the pooled items): the decision and its numbers."""
    level = f"{1 - 2 * result.alpha:.0%}"
    rows = []
    for t in result.tasks + ((result.overall,) if result.overall is not None else ()):
        pw = t.power
        rows.append([t.task, t.metric, str(t.n_items), _num(t.baseline_mean),
                     _num(t.candidate_mean), f"{t.difference:+.4f}",
                     f"[{t.ci_low:+.4f}, {t.ci_high:+.4f}]",
                     _p(t.pvalue_regression_adjusted), _p(t.pvalue_pass_adjusted),
                     t.decision or "(pooled, not decided)", _num(pw.get("mde")),
                     _num(pw.get("power_at_margin"), ".3f"),
                     "—" if pw.get("items_needed") is None else f"{pw['items_needed']:,}"])
    return Table("gate", "Per task: candidate − baseline (positive favours the candidate), "
                 f"{level} interval (its ends are the one-sided α bounds), Holm-adjusted "
                 f"p-values; at the current n: the smallest loss called a regression with power "
                 f"{result.power_target:g}, the probability that a loss of the margin is "
                 "detected as a loss",
                 ["task", "metric", "items", "baseline", "candidate", "difference",
                  f"{level} CI", "p regression", "p pass", "decision",
                  "min. detectable regression", "power at margin", "items to decide"],
                 rows, "frequentist")


def gate_lines(result) -> list[str]:
    """The sentences under the table: tests, repeats, power notes, the A/A check."""
    lines = [f"Rule: {result.rule}"]
    for t in result.tasks:
        pw = t.power
        s = f"{t.task}: {t.test}"
        if "n01" in t.counts:
            s += (f"; candidate wrong where the baseline is right on {t.counts['n01']} items, "
                  f"the reverse on {t.counts['n10']} (discordance {t.counts['discordance']:.3g})")
        if pw.get("mde") is not None:
            s += (f"; this gate calls a regression with power {result.power_target:g} only "
                  f"from a true loss of {pw['mde']:.4g}")
            if result.margin is not None:
                s += (f" (the margin plus the {pw['mde_difference_test']:.4g} a difference "
                      "test detects)")
            s += f" ({pw.get('method')})"
        if result.margin is not None and pw.get("power_at_margin") is not None:
            s += (f"; a true loss of {result.margin:g} is detected as a loss with probability "
                  f"{pw['power_at_margin']:.3g}")
        if pw.get("power_noninferiority") is not None:
            s += (f"; a candidate no worse than the baseline passes with probability "
                  f"{pw['power_noninferiority']:.3g}")
        if t.decision == "inconclusive" and pw.get("items_needed") is not None:
            s += (f"; about {pw['items_needed']:,} items would decide it at the observed "
                  "difference")
        epochs = t.repeats.get("epochs", {})
        if any(v > 1 for v in epochs.values()):
            within = t.repeats.get("within_item_variance", {})
            s += ("; samples per item " + ", ".join(f"{m} {v}" for m, v in epochs.items())
                  + f" ({t.repeats.get('reduced_by')}; within-item variance "
                  + ", ".join(f"{m} {_num(v, '.3g')}" for m, v in within.items()) + ")")
        lines.append(s + ".")
        lines += [f"{t.task}: {note}" for note in pw.get("notes", ())]
    if result.aa is not None:
        lines.append(result.aa["message"])
    return lines


def gate_output(result) -> Output:
    """The :class:`Output` of a gate (kind ``"gate"``)."""
    table = gate_table(result)
    lines = gate_lines(result)
    notes = list(result.warnings) + list(result.notes)
    blocks = (table, Bullets(tuple(lines)),
              *((Paragraph("Warnings: " + " ".join(notes), note=True),) if notes else ()))
    doc = Document("Regression gate", headline(result), (Section("gate", "", blocks),),
                   numbered=False)
    from ._output_kinds import _plain_table

    text = rich_text(headline(result), _plain_table(table), *(f"- {x}" for x in lines),
                     width=140)
    return Output("gate", result.to_dict(), doc, text, markdown=document_markdown(doc))


def junit_xml(suite: str, properties: dict, cases) -> str:
    """JUnit XML of one suite: ``cases`` are (name, outcome, message) with outcome "pass",
    "regression" (a ``<failure>``) or "inconclusive" (``<skipped>``), in the Jenkins
    ``junit-10.xsd`` schema (``<testsuites name tests failures errors>`` of ``<testsuite name
    tests failures errors skipped>``)."""
    cases = list(cases)
    failures = sum(outcome == "regression" for _, outcome, _ in cases)
    suites = ET.Element("testsuites", name="outperform gate", tests=str(len(cases)),
                        failures=str(failures), errors="0")
    node = ET.SubElement(suites, "testsuite", name=suite, tests=str(len(cases)),
                         failures=str(failures), errors="0",
                         skipped=str(sum(outcome == "inconclusive" for _, outcome, _ in cases)))
    props = ET.SubElement(node, "properties")
    for name, value in properties.items():
        ET.SubElement(props, "property", name=name, value=str(value))
    for name, outcome, message in cases:
        case = ET.SubElement(node, "testcase", name=name, classname="outperform.gate")
        if outcome == "regression":
            ET.SubElement(case, "failure", message="regression", type="regression").text = message
        elif outcome == "inconclusive":
            ET.SubElement(case, "skipped", message=f"inconclusive: {message}")
        ET.SubElement(case, "system-out").text = message
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode")


def gate_junit(result) -> str:
    """JUnit XML of a gate: one ``<testcase>`` per task; a regression is a ``<failure>``, an
    inconclusive task ``<skipped>`` (:func:`junit_xml`)."""
    cases = [(t.task, t.decision,
              f"{t.metric}: candidate − baseline {t.difference:+.4f}, "
              f"{1 - 2 * result.alpha:.0%} CI [{t.ci_low:+.4f}, {t.ci_high:+.4f}] over "
              f"{t.n_items} items; {t.test}; Holm-adjusted p of regression "
              f"{_p(t.pvalue_regression_adjusted)}") for t in result.tasks]
    props = {"verdict": result.verdict, "margin": result.margin, "alpha": result.alpha,
             "baseline": result.baseline, "candidate": result.candidate}
    return junit_xml(f"gate {result.candidate} vs {result.baseline}", props, cases)


def gate_plan_output(plan: dict, *, margin: float, alpha: float, power: float) -> Output:
    """``outperform gate --plan``: the items a gate needs (:func:`outperform.plan.gate_sample_size`)."""
    reg, ni = plan["regression"], plan["noninferiority"]
    rows = [["flag a true regression of the margin", f"{int(reg.n):,}", reg.test, reg.method],
            ["pass a candidate that is no worse (non-inferiority)", f"{int(ni.n):,}",
             plan.get("noninferiority_test", ni.test),
             plan.get("noninferiority_method", ni.method)]]
    table = Table("gate-plan", f"Items a gate needs: margin {margin:g}, one-sided α = "
                  f"{alpha:g}, power {power:g}", ["to", "items", "test", "method"], rows,
                  "summary")
    lines = [f"Standard deviation of an item's difference: {plan['sd']:.4g}.",
             f"Power of the two tests at these numbers of items: {reg.power:.3f} and "
             f"{ni.power:.3f}."]
    payload = {"margin": margin, "alpha": alpha, "power": power, "sd": plan["sd"],
               "regression": reg.to_dict(), "noninferiority": ni.to_dict(),
               "approximation": plan["approximation"]}
    text = rich_text(*lines[:1], width=140) + "\n" + rich_text(_table(table), width=140)
    return Output("gate-plan", payload, simple_document("Items a gate needs", lines, [table]),
                  text)


def _table(t):
    from ._output_kinds import _plain_table

    return _plain_table(t)
