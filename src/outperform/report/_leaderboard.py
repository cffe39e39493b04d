"""The leaderboard part of a report: rank confidence sets, tiers, letters, top-k sets.

Cells and sentences from a :class:`~outperform.results.Leaderboard`; :mod:`._document` puts
them in the report's inferences as a subsection, with the rank-set plot as its figure.
"""
from __future__ import annotations

import warnings

import numpy as np

from .._cost import NOTICE_SECONDS, check_cost
from .._errors import PerformanceWarning
from ..compare._pair_choice import choose_pairs, count_sentence
from ..compare._words import best_words
from ..compare._words import mcs_pvalue_text, mcs_words
from ._sections import Table

#: The k of the top-k sets listed, when there are more than k models.
TOP_K = (1, 3, 5, 10)


def _level(board) -> str:
    return f"{100 * board.rank_sets.confidence_level:g}%"


def leaderboard_table(board) -> Table:
    """One row per model, best estimate first: rank, the three rank sets, tier, letters and
    the mean score ± the half-width of its confidence interval."""
    rs, level = board.rank_sets, _level(board)
    order, tiers = rs.order, rs.tiers()
    scores = rs.score_texts(order)
    mcs = board.mcs
    rows = [[rs.names[j], str(rs.rank[j]),
             *(f"[{s[j, 0]}, {s[j, 1]}]" for s in (rs.simultaneous, rs.marginal, rs.percentile)),
             str(tiers[j]), board.letters[rs.names[j]], scores[n],
             *(() if mcs is None else (_mcs_cell(mcs, rs.names[j]),))]
            for n, j in enumerate(order)]
    header = ["model", "rank", "simultaneous", "marginal", "percentile", "tier", "letters",
              f"{board.metric} ± CI", *(() if mcs is None else ("MCS p",))]
    return Table("leaderboard", f"Leaderboard of {len(rs.names)} models, best estimate first: "
                 f"{level} rank sets (percentile: no coverage guarantee), mean "
                 f"{board.metric} ± the half-width of its {level} confidence interval",
                 header, rows, "summary")


def _mcs_cell(mcs, name: str) -> str:
    """A model's MCS p-value, marked "*" when it is in the set (could be the best)."""
    p = mcs.pvalue(name)
    return mcs_pvalue_text(p, mcs.n_resamples) + (" *" if p > mcs.alpha else "")


def leaderboard_intro(board) -> str:
    """How the rank sets, tiers and letters were obtained and what they promise."""
    rs, level, criteria = board.rank_sets, _level(board), board.criteria()
    unit = (f"{rs.n_clusters} clusters of the {rs.n_items} items" if rs.n_clusters is not None
            else f"{rs.n_items} {rs.unit}s")
    return (f"Rank confidence sets at {level} (Mogstad, Romano, Shaikh & Wilhelm 2024) from "
            f"{rs.n_resamples} paired bootstrap resamples ({rs.weights} weights) of the "
            f"{unit}, all models resampled together. The simultaneous sets hold every "
            f"model's true rank at once with probability at least {level}; a marginal set "
            "holds one model's rank; the percentile bootstrap interval of the rank has no "
            "coverage guarantee and is shown for comparison. Rank 1 is the best; a model's "
            "rank counts the models with a strictly better mean. Tier: "
            f"{criteria['tier']}. Letters: compact letter display (Piepho 2004) of "
            f"{criteria['letters']}."
            + (f" Could be the best: {criteria['best']}." if "best" in criteria else ""))


def leaderboard_bullets(board) -> list[str]:
    """The top-k sets (simultaneous) and the leaderboard's notes."""
    k, level = len(board.names), _level(board)
    out = [f"Top-{t} set (simultaneous {level}; the models whose rank set reaches {t}): "
           + ", ".join(board.top_k(t)) + "." for t in TOP_K if t < k]
    if board.best is not None:
        out += best_words("Hsu's MCB", board.best, metric=board.metric)
    disagree = board.disagreement_note()
    mcs = ([mcs_words(board.mcs) + " MCS p: * marks the models in the set."]
           if board.mcs is not None else [])
    return out + mcs + list(board.notes) + ([disagree] if disagree else [])


def leaderboard_pairs(board, *, control: str | None = None, pairs: str | None = None) -> dict:
    """The pairs of a leaderboard shown in full and the count of all pairs that differ.

    The pairs come from the one rule (:func:`outperform.compare._pair_choice.choose_pairs`)
    on the ranking by mean score: each model against ``control`` when one is named, every
    pair up to 6 models, else the neighbours in the ranking; ``pairs="all"`` asks for every
    pair. Each row is the leaderboard's own paired test of the pair (``board.pairwise``,
    adjusted over all pairs as its letters are), so the rows, the letters and the count
    agree; ``differing`` counts the rejections over all k(k − 1)/2 pairs.

    Returns
    -------
    dict
        ``rule``, ``shown``, ``total``, ``differing`` and ``comparisons``: one dict per pair,
        ``x``, ``y`` (x the better-ranked, or the model against the control), ``difference``
        (mean score x − y), ``pvalue``, ``pvalue_adjusted``, ``significant`` and, when the
        leaderboard counted them, ``wins`` and ``losses`` of x against y.
    """
    rs, pw = board.rank_sets, board.pairwise
    ranking = [rs.names[j] for j in rs.order]
    chosen, rule = choose_pairs(ranking, control=control, pairs=pairs, order=ranking)
    # Measured: ~15-45 µs and ~1 kB per row from here to the JSON text (2,000 models, all
    # 1,999,000 pairs: 90 s and 445 MB of JSON on a loaded 2-core machine).
    check_cost("the pairs listed (--pairs neighbours or control list fewer)", len(chosen),
               work=f"{len(ranking):,} models", bytes_per_unit=1000)   # memory: refused
    seconds = 1.5e-5 * len(chosen)
    if seconds >= NOTICE_SECONDS:
        warnings.warn(f"{len(chosen):,} pairs of {len(ranking):,} models listed "
                      f"({rule}): estimated to take at least ~{seconds:.0f} s and "
                      f"~{len(chosen) / 1e3:,.0f} MB of memory; --pairs neighbours or control "
                      "list fewer (the count covers all pairs either way).",
                      PerformanceWarning, stacklevel=2)
    index = {m: j for j, m in enumerate(rs.names)}
    a = np.array([index[x] for x, _ in chosen], dtype=int)
    b = np.array([index[y] for _, y in chosen], dtype=int)
    columns = {"x": [rs.names[i] for i in a], "y": [rs.names[j] for j in b],
               "difference": (rs.estimate[a] - rs.estimate[b]).tolist(),
               "pvalue": np.asarray(pw.pvalue, dtype=float)[a, b].tolist(),
               "pvalue_adjusted": np.asarray(pw.pvalue_adjusted, dtype=float)[a, b].tolist(),
               "significant": np.asarray(pw.reject, dtype=bool)[a, b].tolist()}
    if pw.wins is not None:
        wins = np.asarray(pw.wins)
        columns.update(wins=wins[a, b].astype(int).tolist(),
                       losses=wins[b, a].astype(int).tolist())
    rows = [dict(zip(columns, values)) for values in zip(*columns.values())]
    i, j = np.triu_indices(len(rs.names), 1)
    return {"rule": rule, "shown": len(rows), "total": int(i.size),
            "differing": int(np.asarray(pw.reject, dtype=bool)[i, j].sum()), "comparisons": rows}


def printed_pairs(board, chosen: dict, top: int | None) -> list[dict]:
    """The rows of ``chosen["comparisons"]`` between models among the ``top`` best estimates
    (the models a table of ``top`` rows prints; None: all)."""
    rs = board.rank_sets
    if top is None or top >= len(rs.names):
        return list(chosen["comparisons"])
    kept = {rs.names[j] for j in rs.order[:top]}
    return [r for r in chosen["comparisons"] if r["x"] in kept and r["y"] in kept]


def pairs_sentence(board, chosen: dict, shown: int | None = None) -> str:
    """How many of all pairs differ by the letters' tests, and how many pairs are shown
    (``shown``: the rows printed, :func:`printed_pairs`; default all chosen pairs)."""
    pw = board.pairwise
    shown = chosen["shown"] if shown is None else shown
    what = f"{pw.method}, {pw.adjustment}-adjusted at α = {pw.alpha:g} (the letters' tests)"
    if shown == chosen["total"]:
        return (f"{what}: {chosen['differing']:,} of the {chosen['total']:,} pairs differ "
                "significantly; every pair is shown.")
    rule = chosen["rule"] + ("" if shown == chosen["shown"] else
                             ", among the models shown (all of them: --top 0)")
    return count_sentence(what, chosen["differing"], chosen["total"], shown, rule)


def _pair_cells(board, row: dict) -> list[str]:
    return [row["x"], row["y"], f"{row['difference']:+.4g}",
            *((f"{row['wins']:,}/{row['losses']:,}",) if "wins" in row else ()),
            f"{row['pvalue']:.3g}", f"{row['pvalue_adjusted']:.3g}",
            "yes" if row["significant"] else "no"]


def pairs_table(board, chosen: dict, rows: list[dict] | None = None) -> Table:
    """The chosen pairs (:func:`leaderboard_pairs`; ``rows``: those printed, default all):
    difference, wins/losses, p, adjusted p, verdict."""
    pw = board.pairwise
    rows = chosen["comparisons"] if rows is None else rows
    counted = bool(rows) and "wins" in rows[0]
    header = ["X", "Y", f"X − Y ({board.metric})", *(("wins/losses",) if counted else ()),
              "p", "p adjusted", "differs"]
    shown = ("every pair" if len(rows) == chosen["total"] else
             f"{len(rows):,} of {chosen['total']:,} pairs, {chosen['rule']}")
    return Table("pairs", f"Pairs ({shown}): {pw.method}, {pw.adjustment}-adjusted over all "
                 f"pairs at α = {pw.alpha:g} (the criterion of the letters)", header,
                 [_pair_cells(board, r) for r in rows], "frequentist")


def pairs_bullets(board, rows: list[dict]) -> list[str]:
    """The printed pairs as Markdown bullets (the Markdown output is one table)."""
    return [f"- {r['x']} vs {r['y']}: {r['x']} − {r['y']} = {r['difference']:+.4g} "
            f"{board.metric}" + (f", wins/losses {r['wins']:,}/{r['losses']:,}" if "wins" in r
                                 else "")
            + f", p = {r['pvalue']:.3g}, adjusted p = {r['pvalue_adjusted']:.3g}: "
            + ("differ" if r["significant"] else "no significant difference")
            for r in rows]
