"""The output of a style-controlled Bradley–Terry leaderboard (``leaderboard --battles
--control-for``): ratings with and without control, the rank change, the rank sets of the
controlled ratings and the style coefficients. JSON kind ``battles`` (its style fields)."""
from __future__ import annotations

from ..compare._words import style_control_words
from ..results._ratings import ELO_PER_LOGIT
from ._outputs import Output, markdown_table, rich_text, simple_document
from ._sections import Table


def _plain(t: Table):
    from ._output_kinds import _plain_table

    return _plain_table(t)


def _header(result) -> list[str]:
    level = f"{100 * result.confidence_level:g}%"
    head = ["rank", "model", "rating", f"{level} interval"]
    if result.rank_sets is not None:
        head.append(f"rank set ({level})")
    return head + ["rating without control", "rank without", "change"]


def _rows(result) -> list[list[str]]:
    rows = []
    for i in result.order:
        row = [str(result.rank[i]), result.models[i], f"{result.ratings[i]:.1f}",
               f"[{result.rating_low[i]:.1f}, {result.rating_high[i]:.1f}]"]
        if result.rank_sets is not None:
            lo, hi = result.rank_sets.simultaneous[i]
            row.append(f"[{lo}, {hi}]")
        row += [f"{result.uncontrolled_ratings[i]:.1f}", str(result.uncontrolled_rank[i]),
                f"{result.rank_change[i]:+d}"]
        rows.append(row)
    return rows


def _coefficient_rows(result) -> list[list[str]]:
    return [[name, f"{result.coefficients[k]:+.4f}",
             f"{result.coefficient_standard_error[k]:.4f}",
             f"[{result.coefficient_low[k]:+.4f}, {result.coefficient_high[k]:+.4f}]"]
            for k, name in enumerate(result.features)]


def style_control_lines(result) -> list[str]:
    """The sentences above the tables: model, scale, intervals, coefficients, rank changes."""
    level = f"{100 * result.confidence_level:g}%"
    lines = [f"Style-controlled Bradley-Terry ratings of {len(result.models)} models from "
             f"{result.n_battles:g} battles, controlling for {', '.join(result.features)} "
             "(LMArena's style control: each feature as (A - B) / (A + B), standardised; a "
             "tie counts as half a win for each side"
             + (f"; L2 penalty {result.l2:g} on the style coefficients" if result.l2 else "")
             + ("; pairs reweighted by inverse battle counts" if result.reweight else "")
             + ").",
             f"Elo scale: {ELO_PER_LOGIT:.1f} points per logit, {result.anchor_rule}; {level} "
             "intervals from the sandwich covariance of abilities and coefficients jointly"
             + ("; rank sets simultaneous (Mogstad et al. 2024), by a bootstrap of the "
                "linearised ratings" if result.rank_sets is not None else "") + "."]
    return lines + style_control_words(result) + list(result.notes)


def style_control_output(result, *, width: int | None = None) -> Output:
    """A :class:`~outperform.results.StyleControlResult` as the ``battles`` output kind."""
    lines = style_control_lines(result)
    header, rows = _header(result), _rows(result)
    coef_header = ["feature", "coefficient", "standard error",
                   f"{100 * result.confidence_level:g}% interval"]
    tables = [Table("ratings", "Ratings with and without style control, best controlled "
                    "first", header, rows, "summary"),
              Table("style-coefficients", "Style coefficients (logits per sd of the "
                    "normalised difference)", coef_header, _coefficient_rows(result),
                    "summary")]
    markdown = "\n".join(["## Style-controlled Bradley-Terry ratings", "", *lines, "",
                          markdown_table(tables[0]), "", markdown_table(tables[1])])
    text = rich_text("\n".join(lines), "", _plain(tables[0]), _plain(tables[1]), width=width)
    return Output("battles", result.to_dict(),
                  simple_document("Style-controlled Bradley-Terry ratings", lines, tables),
                  text, markdown)
