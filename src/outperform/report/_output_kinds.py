"""The :class:`~._outputs.Output` of each result the commands print besides a report:
leaderboards, Bradley–Terry ratings, evaluation-log comparisons, runs x tasks aggregates,
power analyses and simulation tables. Each returns its JSON payload, its document (Markdown,
HTML, LaTeX) and its terminal text, built once here for the CLI and for Python alike.
"""
from __future__ import annotations

from ._document import Bullets, Document, Paragraph, Section
from ..compare._words import aso_words, mcs_pvalue_text, mcs_words
from ._leaderboard import (leaderboard_bullets, leaderboard_intro, leaderboard_pairs,
                           leaderboard_table, pairs_bullets, pairs_sentence, pairs_table,
                           printed_pairs)
from ._outputs import Output, markdown_table, rich_text, simple_document
from ._runs import runs_blocks
from ._sections import Table

#: Leaderboard rows printed per task of an evaluation-log comparison: all up to TOP_ALL
#: models, else the TOP_DEFAULT best.
TOP_ALL, TOP_DEFAULT = 20, 10


def leaderboard_markdown(board, top: int | None) -> str:
    """The leaderboard as one Markdown table, the ``top`` best-estimated models only."""
    frame = board.to_frame()
    if top:
        frame = frame.head(top)
    level = f"{100 * board.rank_sets.confidence_level:g}%"
    lines = [f"| model | rank | simultaneous {level} | marginal {level} | percentile "
             f"(no guarantee) | tier | letters | {board.metric} | {level} interval |"
             + (" MCS p |" if board.mcs is not None else ""),
             "|---|---:|---|---|---|---:|---|---:|---|" + ("---:|" if board.mcs is not None
                                                           else "")]
    for r in frame.itertuples(index=False):
        lines.append(
            f"| {r.model} | {r.rank} | [{r.simultaneous_low}, {r.simultaneous_high}] | "
            f"[{r.marginal_low}, {r.marginal_high}] | [{r.percentile_low}, "
            f"{r.percentile_high}] | {r.tier} | {r.letters} | {r.estimate:.4g} | "
            f"[{r.ci_low:.4g}, {r.ci_high:.4g}] |"
            + (f" {mcs_pvalue_text(r.mcs_pvalue, board.mcs.n_resamples)} |"
               if board.mcs is not None else ""))
    criteria = board.criteria()
    lines += ["", f"- tier: {criteria['tier']}", f"- letters: {criteria['letters']}"]
    if (note := board.disagreement_note()) is not None:
        lines.append(f"- note: {note}")
    if board.mcs is not None:
        lines.append(f"- {mcs_words(board.mcs)}")
    return "\n".join(lines)


def _mcs_pvalues_line(board) -> str:
    """Each model's MCS p-value, best estimate first (the text output's column)."""
    names = [board.names[j] for j in board.rank_sets.order]
    return "MCS p-values: " + ", ".join(
        f"{m} {mcs_pvalue_text(board.mcs.pvalue(m), board.mcs.n_resamples)}" for m in names)


def control_rows(board, control: str) -> list[dict]:
    """Every other model against ``control``: the difference of mean scores (model −
    control) and the leaderboard's paired test of that pair, adjusted over all pairs as its
    letters are (``board.pairwise.adjustment``), so the letters and these rows agree."""
    names = list(board.names)
    c = names.index(control)
    pw, est = board.pairwise, board.rank_sets.estimate
    return [{"model": m, "control": control, "difference": float(est[j] - est[c]),
             "pvalue": float(pw.pvalue[j, c]), "pvalue_adjusted": float(pw.pvalue_adjusted[j, c]),
             "significant": bool(pw.reject[j, c])}
            for j, m in enumerate(names) if j != c]


def control_table(board, control: str) -> Table:
    rows = [[r["model"], f"{r['difference']:+.4g}", f"{r['pvalue']:.3g}",
             f"{r['pvalue_adjusted']:.3g}", "yes" if r["significant"] else "no"]
            for r in control_rows(board, control)]
    return Table("control", f"Against the control {control}: {board.pairwise.method}, "
                 f"{board.pairwise.adjustment}-adjusted over all pairs at "
                 f"α = {board.pairwise.alpha:g} (the criterion of the letters)",
                 ["model", f"model − {control}", "p", "p adjusted", "differs"], rows,
                 "frequentist")


def leaderboard_output(board, *, top: int | None = None, top_k: int = 1,
                       control: str | None = None, pairs: str | None = None) -> Output:
    """A :class:`~outperform.results.Leaderboard`: the ``top`` best models (None: all), the
    models that may be among the best ``top_k``, the pairs chosen by ``control`` and
    ``pairs`` (:func:`~._leaderboard.leaderboard_pairs`: against the control, every pair up
    to 6 models, else the neighbours in the ranking) with the count of all pairs that
    differ, and, with a ``control``, every model against it (:func:`control_rows`)."""
    k = len(board.names)
    payload = board.to_dict()
    payload["top_k"] = {"k": top_k, "models": list(board.top_k(min(top_k, k)))}
    chosen = leaderboard_pairs(board, control=control, pairs=pairs)
    payload["pairs"] = chosen
    printed = printed_pairs(board, chosen, top)
    sentence = pairs_sentence(board, chosen, len(printed))
    text, markdown = board.format(top=top, top_k=top_k), leaderboard_markdown(board, top)
    if board.mcs is not None:
        text += "\n" + mcs_words(board.mcs) + "\n" + _mcs_pvalues_line(board)
    extra = (pairs_table(board, chosen),)
    # against a control (the default rule then), the control's table lists the pairs
    against = control is not None and pairs in (None, "control")
    if printed:
        text += "\n\n" + rich_text(_plain_table(pairs_table(board, chosen, printed)),
                                    width=200)
        markdown += "" if against else "\n\n" + "\n".join(pairs_bullets(board, printed))
    text += "\n" + sentence
    markdown += "\n\n- " + sentence
    if control is not None:
        payload["control"] = {"model": control, "comparisons": control_rows(board, control)}
        table = control_table(board, control)
        markdown += "\n\n" + markdown_table(table)
        if not against:
            extra += (table,)
            text += "\n\n" + rich_text(_plain_table(table), width=200)
    doc = Document("Leaderboard", leaderboard_intro(board), (Section("leaderboard", "", (
        Paragraph(leaderboard_intro(board)), leaderboard_table(board),
        Bullets(tuple(leaderboard_bullets(board))), *extra,
        Paragraph(pairs_sentence(board, chosen)))),),
        numbered=False)
    return Output("leaderboard", payload, doc, text, markdown)


def _plain_table(t: Table):
    """A rich table of a report table (title above, words left, numbers right)."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    out = RichTable(title=escape(t.title), title_justify="left")
    for n, name in enumerate(t.header):
        out.add_column(escape(name), justify="left" if n == 0 else "right")
    for row in t.rows:
        out.add_row(*(escape(c) for c in row))
    return out


# -- Bradley-Terry ratings -----------------------------------------------------------------

def _battle_rows(result) -> list[list[str]]:
    """Rank, model, rating, interval, wins, losses, ties of each model, best first."""
    return [[str(rank), result.models[i], f"{result.ratings[i]:.1f}",
             f"[{result.rating_low[i]:.1f}, {result.rating_high[i]:.1f}]",
             f"{result.wins[i]:g}", f"{result.losses[i]:g}", f"{result.ties_count[i]:g}"]
            for rank, i in enumerate(result.order, 1)]


def _battle_header(result) -> list[str]:
    level = f"{100 * result.confidence_level:g}%"
    return ["rank", "model", "rating", f"{level} interval", "wins", "losses", "ties"]


def battle_lines(result) -> list[str]:
    """The sentences printed above and below the ratings: model, scale, interval, notes."""
    from ..results._ratings import ELO_PER_LOGIT, INTERVALS

    tie = {"davidson": f"ties as a third outcome (Davidson 1970), nu = "
                       f"{result.tie_parameter:.3f}" if result.tie_parameter is not None else "",
           "half": "a tie counts as half a win for each side",
           "none": "no ties in the battles"}[result.ties]
    lines = [f"Bradley-Terry ratings of {len(result.models)} models from "
             f"{result.battles.sum() / 2:g} battles; {tie}.",
             f"Elo scale: {ELO_PER_LOGIT:.1f} points per logit (400 points = 10:1 odds), "
             f"{result.anchor_rule}.",
             f"Intervals: {INTERVALS[result.interval]}"
             + (f", {result.bootstrap_ratings.shape[0]} resamples"
                if result.bootstrap_ratings is not None else "") + "."]
    if result.n_failed_resamples:
        lines.append(f"{result.n_failed_resamples} bootstrap resamples had no finite estimate "
                     "(a model never beaten or never winning in them) and were left out.")
    return lines + list(result.notes)


def battles_table(result):
    """The ratings as a rich table (the terminal's)."""
    from rich.markup import escape
    from rich.table import Table as RichTable

    table = RichTable()
    for name in _battle_header(result):
        table.add_column(escape(name), justify="left" if name == "model" else "right")
    for row in _battle_rows(result):
        table.add_row(*(escape(c) for c in row))
    return table


def battles_output(result, *, width: int | None = None) -> Output:
    """A :class:`~outperform.results.BradleyTerryResult`."""
    lines, header = battle_lines(result), _battle_header(result)
    markdown = ["## Bradley-Terry ratings", ""] + lines + [""]
    markdown += ["| " + " | ".join(header) + " |",
                 "|" + "|".join("---:" if h != "model" else "---" for h in header) + "|"]
    markdown += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
                 for row in _battle_rows(result)]
    table = Table("ratings", "Bradley-Terry ratings (Elo scale), best first", header,
                  _battle_rows(result), "summary")
    return Output("battles", result.to_dict(),
                  simple_document("Bradley-Terry ratings", lines, [table]),
                  rich_text(lines[0], battles_table(result), *lines[1:], width=width),
                  "\n".join(markdown))


# -- runs x tasks --------------------------------------------------------------------------

def runs_output(result, efficiency=None, components=None, aso=None) -> Output:
    """A :class:`~outperform.results.RunsComparison`, with the sample efficiency of learning
    curves, the variance components and the almost stochastic order of the pairs
    (``aso``: :func:`outperform.compare.compare_aso`'s results) when they were computed."""
    payload = {**result.to_dict(),
               **({"variance_components": components.to_dict()} if components else {}),
               **({"sample_efficiency": efficiency.to_dict()} if efficiency else {}),
               **({"aso": [r.to_dict() for r in aso]} if aso else {})}
    runs = result.to_dict()
    lines, tables = runs_blocks(runs)
    extra = [str(r) for r in (efficiency, components) if r]
    text = "\n\n".join(str(r) for r in (result, efficiency, components) if r)
    if aso:
        aso_lines, aso_table = aso_blocks(aso)
        extra += aso_lines
        tables = [*tables, aso_table]
        text += "\n\n" + "\n".join(aso_lines) + "\n" + rich_text(_plain_table(aso_table),
                                                                 width=200)
    return Output("runs", payload, simple_document("Runs x tasks", lines + extra, tables),
                  text)


def aso_blocks(results) -> tuple[list[str], Table]:
    """Sentences and the table of almost stochastic order, one row per pair and task."""
    from ..compare._aso import next_seed_note   # on use: it imports scipy.special (~0.3 s)

    first = results[0]
    level = f"{100 * first.level:.4g}%"
    lines = [f"Almost stochastic order (Dror, Shlomov & Reichart 2019; del Barrio et al. 2018): "
             f"ε_min is the {level} upper bound (α = {first.alpha:g}, Bonferroni over "
             f"{first.n_comparisons} comparisons) of the violation ratio, from "
             f"{first.n_resamples} bootstrap resamples of the runs (Ulmer et al. 2022); a model "
             f"is almost stochastically better when its ε_min < τ = {first.tau:g}."]
    rows = []
    for r in results:
        lines += aso_words(r)
        lines += [n for n in (next_seed_note(r),) if n]
        rows += [[r.task if r.task is not None else "pooled", r.names[i], r.names[j],
                  f"{r.eps_min[i, j]:.3f}", f"{r.eps_min[j, i]:.3f}",
                  f"{r.violation_ratio[i, j]:.3f}"] for i, j in r.pairs()]
    table = Table("runs-aso", f"Almost stochastic order: ε_min of each pair ({level})",
                  ["task", "A", "B", "ε_min(A, B)", "ε_min(B, A)", "ε_W2(A, B)"], rows,
                  "summary")
    return lines, table


# -- power analyses ------------------------------------------------------------------------

def plan_output(result) -> Output:
    """A :class:`~outperform.plan.PowerAnalysis`, :class:`~outperform.plan.Assurance` or
    :class:`~outperform.plan.GoldLabelPlan`."""
    payload = result.to_dict()
    if hasattr(result, "n_classical"):                   # a GoldLabelPlan
        rows = [[k, f"{v:.6g}" if isinstance(v, float) else str(v)]
                for k, v in payload.items() if k != "details" and v is not None]
        table = Table("gold_labels", "Human labels needed", ["quantity", "value"], rows,
                      "summary")
        return Output("gold-labels", payload, simple_document("Gold labels for PPI++",
                                                              [str(result)], [table]),
                      str(result))
    if hasattr(result, "probabilities"):
        rows = [[k, f"{v:.4f}"] for k, v in result.probabilities.items()]
        table = Table("assurance", "Probability of each decision", ["decision", "probability"],
                      rows, "summary")
        return Output("assurance", payload, simple_document(result.test, [str(result)],
                                                            [table]), str(result))
    text = str(result)
    shown = {k: v for k, v in result.details.items() if v is not None}
    if shown:
        text += "\n  " + ", ".join(f"{k} = {v:.6g}" if isinstance(v, float) else f"{k} = {v}"
                                   for k, v in shown.items())
    rows = [[k, f"{v:.6g}" if isinstance(v, float) else str(v)]
            for k, v in payload.items() if k != "details" and v is not None]
    rows += [[k, f"{v:.6g}" if isinstance(v, float) else str(v)] for k, v in shown.items()]
    table = Table("power", "Power analysis", ["quantity", "value"], rows, "summary")
    return Output("power", payload, simple_document(result.test, str(result).splitlines(),
                                                    [table]), text)


def frame_table(frame, key: str, title: str) -> Table:
    """A report table of a pandas DataFrame (numbers to 4 significant digits)."""
    def cell(v):
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    return Table(key, title, [str(c) for c in frame.columns],
                 [[cell(v) for v in row] for row in frame.itertuples(index=False)], "summary")


def power_table_output(table, heading: str) -> Output:
    """The runs x folds table of the corrected resampled t-test (``corrected_ttest_table``)."""
    frame = table.round(3)
    flat = frame.reset_index()
    flat.columns = [str(c) for c in flat.columns]
    payload = {"heading": heading, "value": table.attrs.get("value"),
               "runs": [int(r) for r in table.index], "folds": [int(k) for k in table.columns],
               "table": [[None if v != v else float(v) for v in row]
                         for row in table.to_numpy()]}
    return Output("power-table", payload,
                  simple_document("Corrected resampled t-test", [heading],
                                  [frame_table(flat, "power-table", heading)]),
                  heading + "\n" + frame.to_string())


def simulation_output(frame, name: str) -> Output:
    """The results table of a simulation study (``outperform.simulate.run_figure``)."""
    payload = {"study": name, "columns": [str(c) for c in frame.columns],
               "rows": frame.to_dict(orient="records")}
    return Output("simulation", payload,
                  simple_document(f"Simulation study {name}", [],
                                  [frame_table(frame, "simulation", name)]),
                  frame.to_string(index=False))



def reports_output(title: str, reports: dict, *, notes=()) -> Output:
    """Several comparison reports as one output (``outperform benchmark``, ``demo``): each
    report's sections under a section of its own name; JSON ``{"reports": {name:
    report.to_dict()}}``, each report following schema.json."""
    from ._document import Document, Paragraph, Section, build_document

    parts = []      # each report: a section with its name and headline, then its own
    for i, (name, report) in enumerate(reports.items()):   # sections at the same depth as
        doc = build_document(report, figures=False)        # in a single report
        parts.append(Section(f"report-{i + 1}", name, (Paragraph(doc.headline),)))
        parts += doc.sections       # keys kept: "see Warnings" finds its section by key
    document = Document(title, f"{len(reports)} comparison report(s)", tuple(parts),
                        numbered=False)
    payload = {"title": title, "reports": {name: r.to_dict() for name, r in reports.items()},
               "notes": list(notes)}
    return Output("reports", payload, document, "")
