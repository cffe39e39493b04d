"""Content of the reports, in the order of Williams' (2026) §7 checklist.

The question (Q1–Q3), the loss or metric, the design (fixed and random factors), the tests
and their assumptions, the inferences with effect sizes (frequentist and Bayesian views),
and the warnings, as plain strings and tables of formatted cells. :mod:`._document` puts
them in one document; the renderers only escape and lay it out.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..compare._registry import procedure
from ..compare._words import decision_label
from ._format import fmt_column, fmt_num, fmt_p, is_bayesian

# Williams (2026) §1, after Dietterich (1998).
QUESTIONS = {
    "Q1": ("Q1: comparison of predictors on a single task",
           "Which of these trained predictors is better on this task? They are judged on one "
           "shared test set; the conclusions hold for these predictors, not for the algorithms "
           "that trained them."),
    "Q2": ("Q2: comparison of learning algorithms on a single task",
           "Which learning algorithm gives better predictors when trained on data of this size "
           "from this task? Training sets vary, here by resampling one data set."),
    "Q3": ("Q3: comparison of learning algorithms across multiple tasks",
           "Which learning algorithm is better over a population of tasks, of which the data "
           "sets used here are a sample?"),
}

THINK = ("THINK! It is easy to blindly apply tests, but it is important to maintain a "
         "sceptical/critical mindset (Williams 2026 §7).")

# What each test assumes is in the registry of procedures (outperform.compare._procedures):
# ``{units}`` in a note is what the test treats as independent observations.
_UNITS = {"Q1": "test examples", "Q2": "folds", "Q3": "data sets"}


def without_empty_columns(header: list[str], rows: list[list[str]], keep: int = 1):
    """Drop the columns (after the first ``keep``) that hold no value in any row."""
    cols = [c for c in range(len(header))
            if c < keep or any(r[c] not in ("–", "") for r in rows)]
    return [header[c] for c in cols], [[r[c] for c in cols] for r in rows]


@dataclass(frozen=True)
class Table:
    """A titled table: ``header`` and ``rows`` of already formatted cells.

    ``view`` is ``"summary"``, ``"frequentist"`` or ``"bayesian"``; ``marked`` holds the
    indices of the rows to emphasise (the test the decision rests on).
    """

    key: str
    title: str
    header: list[str]
    rows: list[list[str]]
    view: str
    marked: tuple[int, ...] = ()


def model_names(report) -> tuple[str, str]:
    """Names to put for A and B: the two models, or "A" and "B" when there are more."""
    return tuple(report.models[:2]) if len(report.models) == 2 else ("A", "B")


def question_text(report) -> tuple[str, str]:
    """Title and explanation of the report's question (Williams 2026 §1)."""
    return QUESTIONS.get(report.question, (report.question, ""))


def metric_text(report) -> str:
    """One sentence on the loss or metric and its direction."""
    direction = "higher is better" if report.higher_is_better else "lower is better"
    text = f"Metric: {report.metric} ({direction})."
    if report.question == "Q1" and report.loss:
        text = f"Loss per test example: {report.loss} ({direction})."
    return text + (" The loss should fit the application: the tests answer the question for "
                   "this loss only (Williams 2026 §2).")


def design_text(report) -> list[str]:
    """Sentences on the fixed and random factors and on the pairing (Williams 2026 §3)."""
    d, k = report.details, len(report.models)
    if report.question == "Q1":
        n = report.n_examples
        out = [f"Fixed factor: the predictor ({k} predictors: {', '.join(report.models)}).",
               "Random factor: the test examples" + (f" (N = {n})" if n else "")
               + ", drawn from the distribution the conclusions generalise to.",
               "Paired design: every predictor is scored on the same examples, so the "
               "comparison uses their per-example differences (Williams 2026 §5)."]
        if d.get("groups"):
            out.append(f"The examples form {d['groups']} groups whose losses are averaged: the "
                       "groups are the independent units (Williams 2026 §6.1).")
        return out
    if report.question == "Q2":
        folds = sorted({int(r["n_folds"]) for r in report.summary if "n_folds" in r})
        out = [f"Fixed factor: the learning algorithm ({k} algorithms: "
               f"{', '.join(report.models)}) on task {report.task or '?'}.",
               "Random factor: the training (and test) sets, here resampled from one data set"
               + (f": {folds[0]} paired measurements per algorithm" if len(folds) == 1 else "")
               + "."]
        if report.rho is not None:
            out.append(f"Overlapping training sets make the folds correlated: rho = "
                       f"{report.rho:.3g} ({report.rho_source or 'given'}).")
        return out
    out = [f"Fixed factor: the learning algorithm ({k} algorithms: {', '.join(report.models)}).",
           f"Random factor: the tasks (N = {report.n_tasks} data sets), a sample of the tasks "
           "the conclusions generalise to (Williams 2026 §3)."]
    if report.aggregation:
        out.append(f"One score per (data set, algorithm): {report.aggregation}.")
    return out


def settings_text(report) -> list[str]:
    """Significance level, ROPE and decision threshold of the analysis."""
    out = [f"Significance level α = {report.alpha}."]
    rope = rope_text(report)
    if rope:
        out.append(rope)
    if report.control:
        out.append(f"Control (reference) model: {report.control}.")
    return out


def _assumes(key: str, units: str) -> str:
    """The registry's assumption note of ``key``, or why there is none."""
    try:
        return procedure(key).assumes(units)
    except KeyError:
        return f"not recorded: {key!r} is not in outperform's registry of procedures."


def test_notes(report) -> list[tuple[str, str, str]]:
    """(name, role, assumptions) of every test and post-hoc procedure in the report."""
    units = _UNITS.get(report.question, "units")
    out = []
    for key, res in report.tests.items():
        role = "decides" if key == report.recommended else (
            "Bayesian view" if hasattr(res, "p_rope") else "reported beside it")
        out.append((res.method, role, _assumes(key, units)))
    for key, res in report.posthoc.items():
        role = "Bayesian, all pairs" if is_bayesian(res) else "post-hoc"
        out.append((res.method, role, _assumes(key, units)))
    if getattr(report, "best", None) is not None:
        out.append((report.best.method, "with the best", _assumes("mcb", units)))
    return out


def letters_text(report) -> str | None:
    """The criterion of the summary's letters column (None when there is none): which
    post-hoc test, at which level, and that the conclusions naming it use the same one."""
    key = report.details.get("letters_from")
    if not key or key not in report.posthoc:
        return None
    res = report.posthoc[key]
    return (f"Letters: compact letter display (Piepho 2004) of {procedure(key).phrase} at "
            f"α = {res.alpha:g} ({res.method}); models sharing a letter do not differ "
            f"significantly by it, as the conclusions that start \"{procedure(key).label}\" "
            "say.")


def summary_table(report) -> Table:
    """Models best first with their average rank / mean score."""
    cols = list(report.summary[0]) if report.summary else []   # in the order of the first row
    # One format per column, so that an average rank 2 is printed 2.000 beside 1.964.
    columns = [[str(r[c]) for r in report.summary] if c == "model" else
               fmt_column([r.get(c) for r in report.summary]) for c in cols]
    rows = [list(cells) for cells in zip(*columns)] if cols else []
    return Table("summary", "Models, best first", [c.replace("_", " ") for c in cols], rows,
                 "summary")


def _estimate(res) -> str:
    if res.estimate is None or (isinstance(res.estimate, float) and math.isnan(res.estimate)):
        return "–"
    # Named when it is not the difference A − B the column stands for (McNemar's φ).
    name = (res.details or {}).get("estimate_name")
    text = (f"{name.split(' = ')[0]} = " if name else "") + f"{res.estimate:.3g}"
    try:
        lo, hi = res.confidence_interval(0.95)
    except NotImplementedError:
        return text
    return f"{text} [{lo:.3g}, {hi:.3g}]"


def _effect(res) -> str:
    if res.effect_size is None or (isinstance(res.effect_size, float)
                                   and math.isnan(res.effect_size)):
        return "–"
    name = f"{res.effect_size_name} = " if res.effect_size_name else ""
    return f"{name}{res.effect_size:.3f}"


FREQUENTIST_HEADER = ["test", "statistic", "df", "p-value", "estimate [95% CI]", "effect size"]


def frequentist_row(res) -> list[str]:
    """Cells of one frequentist result, under :data:`FREQUENTIST_HEADER`."""
    return [res.method, fmt_num(float(res.statistic)), fmt_num(res.df), fmt_p(float(res.pvalue)),
            _estimate(res), _effect(res)]


def frequentist_table(report) -> Table | None:
    """Frequentist tests with statistic, df, p-value, estimate with 95% CI and effect size."""
    rows, marked = [], []
    for key, res in report.tests.items():
        if not hasattr(res, "pvalue"):
            continue
        if key == report.recommended:
            marked.append(len(rows))
        rows.append(frequentist_row(res))
    if not rows:
        return None
    header, rows = without_empty_columns(FREQUENTIST_HEADER, rows)
    return Table("frequentist", "Frequentist tests", header, rows, "frequentist", tuple(marked))


def _interval(res) -> str:
    mean, (lo, hi) = res.posterior_mean, res.credible_interval_95
    if mean is None or not math.isfinite(mean):
        return "–"
    if lo is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{mean:.3g}"
    return f"{mean:.3g} [{lo:.3g}, {hi:.3g}]"


def _on_phi(res) -> bool:
    """Whether a Bayesian result's ROPE is on McNemar's φ rather than in metric units."""
    return str(getattr(res, "parameter", "")).startswith("phi")


def rope_label(res, metric: str = "") -> str:
    """A Bayesian result's ROPE with its units: "±0.01 accuracy" or "[0.46, 0.54] on φ"."""
    lo, hi = res.rope
    if _on_phi(res):
        return f"[{lo:.3g}, {hi:.3g}] on φ"
    return (f"±{hi:.3g} {metric}" if math.isclose(lo, -hi, abs_tol=1e-15)
            else f"[{lo:.3g}, {hi:.3g}] {metric}").rstrip()


def _rope_scale(report) -> str | None:
    rope, rule, a = report.rope, report.rope_rule, model_names(report)[0]
    if isinstance(rope, (int, float)) and not isinstance(rope, bool):
        rule = f" ({rule})" if rule not in (None, "given") else ""
        return f"±{rope:.3g} in {report.metric}, on the difference between two models{rule}"
    if rule:   # one width per pair (Q2 with several models)
        return (f"{rule}, in {report.metric}; the width of each pair is in its "
                "table")
    for res in report.tests.values():
        if hasattr(res, "p_rope"):
            if _on_phi(res):
                return (f"{rope_label(res, report.metric)}, where φ is the share of the discordant "
                        f"examples that {a} gets wrong and φ = 1/2 means no difference "
                        "(Williams 2026 eq. 7)")
            return f"{rope_label(res, report.metric)}, on the difference between the two models"
    if any(is_bayesian(r) and "posterior_mean" in r.details for r in report.posthoc.values()):
        return ("around φ = 1/2 for each pair by Williams (2026) eq. 7, where φ is the share "
                "of the pair's discordant examples that the first model gets wrong")
    return None


def rope_text(report) -> str | None:
    """The ROPE of the report's Bayesian tests, with its value and units, explained once."""
    scale = _rope_scale(report)
    if scale is None:
        return None
    thresholds = {r.threshold for r in report.tests.values() if hasattr(r, "p_rope")}
    # A Bayesian pairwise table has no p-values; its alpha is 1 - threshold.
    thresholds |= {round(1 - r.alpha, 12) if r.threshold is None else r.threshold
                   for r in report.posthoc.values() if is_bayesian(r)}
    threshold = report.threshold or (thresholds.pop() if len(thresholds) == 1
                                                    else None)
    decides = (f" when the posterior probability of one region reaches {threshold}"
               if threshold is not None else "")
    return (f"ROPE (region of practical equivalence): {scale}. A difference inside it is too "
            "small to matter in practice: P(equivalent) is the posterior probability of the "
            "ROPE, and a Bayesian test decides \"better\" or \"practically equivalent\""
            f"{decides} (Williams 2026 §5.2).")


def bayesian_header(a: str, b: str) -> list[str]:
    """Columns of :func:`bayesian_row` for models named ``a`` (A) and ``b`` (B)."""
    return ["test", f"P({a} better)", "P(equivalent)", f"P({b} better)", "P(no majority)",
            "ROPE", "posterior mean [95% CrI]", "decision"]


def bayesian_row(res, a: str, b: str, metric: str = "") -> list[str]:
    """Cells of one Bayesian result: region probabilities, ROPE, posterior, decision.

    A result whose ROPE has zero width for want of spread (``details["zero_rope"]``) shows
    no region probabilities: they would be 0 or 1 from a point mass.
    """
    probabilities = ((res.p_a_better, res.p_rope, res.p_b_better)
                     if not res.details.get("zero_rope") else (math.nan,) * 3)
    # The Poisson test's three majorities leave a remainder: no region holds a majority.
    rest = res.details.get("p_no_majority", math.nan)
    return [res.method, *(f"{p:.3f}" if math.isfinite(p) else "–"
                          for p in (*probabilities, rest)),
            rope_label(res, metric), _interval(res), decision_label(a, b, res.decision)]


def bayesian_table(report) -> Table | None:
    """Bayesian tests: the three region probabilities, ROPE, posterior summary, decision."""
    a, b = model_names(report)
    rows, marked, thresholds = [], [], set()
    for key, res in report.tests.items():
        if not hasattr(res, "p_rope"):
            continue
        if key == report.recommended:
            marked.append(len(rows))
        rows.append(bayesian_row(res, a, b, report.metric))
        thresholds.add(res.threshold)
    if not rows:
        return None
    header = bayesian_header(a, b)
    notes = [f"decision threshold {thresholds.pop():g}"] if len(thresholds) == 1 else []
    if len({r[5] for r in rows}) == 1:   # one ROPE for all: say it once, in the title
        notes.insert(0, f"ROPE {rows[0][5]}")
        header, rows = header[:5] + header[6:], [r[:5] + r[6:] for r in rows]
    header, rows = without_empty_columns(header, rows)
    title = "Bayesian tests (" + "; ".join(["posterior probabilities"] + notes) + ")"
    return Table("bayesian", title, header, rows, "bayesian", tuple(marked))
