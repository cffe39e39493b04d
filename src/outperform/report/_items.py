"""The output of item diagnostics (:class:`~outperform.results.ItemDiagnostics`): models by
ability, signal and noise per benchmark and subtask, the items to look at, in every format."""
from __future__ import annotations

import math

import numpy as np

from ._document import Bullets, Document, Paragraph, Section
from ._outputs import Output, markdown_table, rich_text
from ._sections import Table

#: Items listed by default in the table of items to look at.
ITEMS_SHOWN = 20


def _num(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    return f"{value:.{digits}f}"


def items_intro(result) -> str:
    """One paragraph: what was read and the counts of the flagged items."""
    c = result.counts()
    return (f"{len(result.models)} models, {c['items']} items ({result.metric}); "
            f"{c['none_right']} items no model gets right, {c['all_right']} every model gets "
            f"right, {c['top_agree']} on which the top {result.top_k} models (by "
            f"{result.ranked_by}) all score the same, {c['negative_discrimination']} with a "
            "negative discrimination.")


def models_table(result) -> Table:
    """Models best first: mean score and items answered, abilities with intervals."""
    frame = result.models_frame()
    header = ["model", "mean score", "items"]
    if result.irt is not None:
        level = f"{100 * result.irt['confidence_level']:g}%"
        header += [f"ability ({result.irt['model']})", "se", f"{level} interval"]
    rows = []
    for r in frame.itertuples(index=False):
        row = [str(r.model), _num(r.mean), str(int(r.items))]
        if result.irt is not None:
            row += [_num(r.ability, 2), _num(r.se, 2), f"[{_num(r.low, 2)}, {_num(r.high, 2)}]"]
        rows.append(row)
    title = ("Models by item response ability (logits)" if result.irt is not None
             else "Models by mean score")
    return Table("items-models", title, header, rows, "summary")


def benchmarks_table(result) -> Table:
    """Signal, noise, SNR and decision accuracies per benchmark (all tasks) and subtask."""
    header = ["benchmark / subtask", "models", "items", "signal", "noise", "SNR",
              "decision acc. (halves)", "decision acc. (vs all)"]
    rows = [[b["task"] if b["task"] is not None else "all tasks", str(b["n_models"]),
             str(b["n_items"]), _num(b["signal"]), _num(b["noise"]), _num(b["snr"], 1),
             _num(b["decision_accuracy_split_half"]), _num(b["decision_accuracy_vs_all"])]
            for b in result.benchmarks]
    return Table("items-benchmarks", "Signal and noise (Heineman et al. 2025)", header, rows,
                 "summary")


def flagged_table(result, shown: int | None = ITEMS_SHOWN) -> Table:
    """Items to look at: no model right, every model right, not separating the top k, or
    negatively discriminating; lowest discrimination first."""
    with np.errstate(invalid="ignore"):
        negative = result.discrimination < 0
    flag = result.none_right | result.all_right | result.top_agree | negative
    idx = np.flatnonzero(flag)
    key = np.where(np.isnan(result.discrimination[idx]), -np.inf, result.discrimination[idx])
    idx = idx[np.argsort(key, kind="stable")]
    if shown:
        idx = idx[:shown]
    rows = []
    for j in idx:
        why = [w for w, on in (("no model right", result.none_right[j]),
                               ("every model right", result.all_right[j]),
                               (f"top {result.top_k} agree", result.top_agree[j]),
                               ("negative discrimination", negative[j])) if on]
        rows.append([str(result.tasks[j]), str(result.examples[j]), str(int(result.n_models[j])),
                     _num(float(result.difficulty[j])), _num(float(result.discrimination[j])),
                     "; ".join(why)])
    title = f"Items to look at ({int(flag.sum())}" + (
        f", {len(idx)} shown)" if len(idx) < flag.sum() else ")")
    return Table("items-flagged", title, ["task", "item", "models", "difficulty",
                                          "discrimination", "why"], rows, "summary")


def items_notes(result) -> list[str]:
    """How each number was computed, and the notes of the analysis."""
    notes = [
        "difficulty: the item's mean score (higher is easier); discrimination: the corrected "
        "item-total correlation (point-biserial for 0/1 scores), Pearson's r between the "
        "models' scores on the item and their mean scores on the other items.",
        f"signal: max |m_j - m_k| / mean(m) over the models' mean scores; noise: relative "
        f"standard deviation of the best model's mean over {result.n_resamples} bootstrap "
        "resamples of the items (Heineman et al. 2025 use checkpoint-to-checkpoint noise); "
        f"decision accuracy: share of pairs of models ordered alike by two random halves of "
        f"the items ({result.n_splits} halvings), and by the subtask and all tasks."]
    if result.irt is not None:
        prior = result.irt["prior_sd"]
        notes.append(f"{result.irt['model']} model by "
                     + ("joint maximum likelihood (mean item difficulty 0)" if prior is None
                        else f"penalised joint maximum likelihood (normal priors, sd {prior:g})")
                     + "; standard errors from the information of all parameters jointly"
                     + ("" if result.irt["converged"] else "; the fit did NOT converge") + ".")
    return notes + list(result.notes)


def items_section(result, shown: int | None = ITEMS_SHOWN, title: str = "") -> Section:
    """The item diagnostics as one :class:`Section` of a document (its paragraph, the
    models, signal-and-noise and flagged-items tables, and the notes), for this command's
    output or for another report that includes them."""
    tables = (models_table(result), benchmarks_table(result), flagged_table(result, shown))
    return Section("items", title, (Paragraph(items_intro(result)), *tables,
                                    Bullets(tuple(items_notes(result)))))


def items_output(result, shown: int | None = ITEMS_SHOWN) -> Output:
    """The :class:`Output` (kind ``"items"``) of an :class:`ItemDiagnostics`."""
    intro = items_intro(result)
    tables = [models_table(result), benchmarks_table(result), flagged_table(result, shown)]
    notes = items_notes(result)
    doc = Document("Item diagnostics", intro, (items_section(result, shown),), numbered=False)
    text = rich_text(intro, *(_rich(t) for t in tables), *(f"- {n}" for n in notes),
                     width=100)
    markdown = "\n\n".join(["# Item diagnostics", intro]
                           + [markdown_table(t, 2) for t in tables]
                           + ["\n".join(f"- {n}" for n in notes)]) + "\n"
    return Output("items", result.to_dict, doc, text, markdown)


def _rich(t: Table):
    from rich import box
    from rich.table import Table as RichTable

    table = RichTable(title=t.title, box=box.SIMPLE_HEAD)
    for h in t.header:
        table.add_column(h)
    for row in t.rows:
        table.add_row(*row)
    return table
