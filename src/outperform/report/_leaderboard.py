"""The leaderboard part of a report: rank confidence sets, tiers, letters, top-k sets.

Cells and sentences from a :class:`~outperform.results.Leaderboard`; :mod:`._document` puts
them in the report's inferences as a subsection, with the rank-set plot as its figure.
"""
from __future__ import annotations

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
