"""Q1's sentences: each test's verdict on two predictors, from :func:`._words.conclusion`.

Split from :mod:`._q1`; the tests on negated losses (positive = A better) are stated in
that convention, the difference named "mean loss of B − A" as in the report's tables.
"""
from __future__ import annotations

from ..results import PairwiseResult
from ._pair_choice import report_pairs, said_pairs, shown_pairs
from ._words import conclusion, probability_summary


def tost_words(names, res, alpha) -> str:
    """The TOST verdict: equivalence names no better model, so it needs no _words phrase."""
    a, b = names
    lo, hi = res.confidence_interval(1 - 2 * alpha)
    verdict = ("equivalent" if res.pvalue < alpha else "not shown to be equivalent")
    return (f"{res.method}: {a} and {b} are {verdict} within ±{res.details['margin']:g} "
            f"(the ROPE as margin; p = {res.pvalue:.3g}, {1 - 2 * alpha:.0%} confidence "
            f"interval of the mean loss of {b} − {a} [{lo:.3g}, {hi:.3g}]).")


def noninferiority_words(new, ref, res, alpha) -> str:
    """Non-inferiority names no better model (it bounds a loss), so it needs no _words phrase."""
    m, lo = res.details["margin"], res.confidence_interval(1 - alpha)[0]
    verdict = "non-inferior to" if res.pvalue < alpha else "not shown to be non-inferior to"
    return (f"{res.method}: {new} is {verdict} {ref} within {m:g} accuracy (accuracy "
            f"difference {res.estimate:+.4g}, one-sided {1 - alpha:.0%} lower bound {lo:.4g} "
            f"vs {-m:g}; p = {res.pvalue:.3g}).")


def bayes_words(names, res, losses, quantity) -> str:
    a, b = names
    lo, hi = res.rope
    return conclusion(res.method, a, b, decision=res.decision,
                      values=(losses[a].mean(), losses[b].mean()),
                      quantity=quantity, higher_is_better=False,
                      evidence=f"{probability_summary(a, b, res, '.3g')}; ROPE [{lo:.3g}, "
                               f"{hi:.3g}], threshold {res.threshold}")


def mcnemar_words(names, res, counts, losses, alpha) -> str:
    # The direction comes from the error rates (n01 vs n10), never from the statistic.
    a, b = names
    return conclusion(
        res.method, a, b, decision=res.pvalue < alpha,
        values=(losses[a].mean(), losses[b].mean()), quantity="error rate",
        higher_is_better=False,
        evidence=f"{a} wrong and {b} right on {counts.n01} example"
                 f"{'' if counts.n01 == 1 else 's'}, the reverse on "
                 f"{counts.n10}; p = {res.pvalue:.3g} " + ("<" if res.pvalue < alpha else ">=")
                 + f" {alpha}")


def freq_words(names, res, losses, alpha, quantity) -> str:
    # res compares negated losses, so its estimate is mean(loss_B - loss_A), positive when
    # A is better: the sentence states it so, as the report's table (issue 25).
    a, b = names
    lo, hi = res.confidence_interval(0.95)
    effect = (f", {res.effect_size_name} = {res.effect_size:.3f}"
              if res.effect_size is not None else "")
    return conclusion(
        res.method, a, b, decision=res.pvalue < alpha,
        values=(losses[a].mean(), losses[b].mean()), quantity=quantity,
        higher_is_better=False,
        evidence=f"mean loss of {b} − {a} = {res.estimate:.4g}, 95% CI [{lo:.4g}, {hi:.4g}], "
                 f"p = {res.pvalue:.3g}{effect}; positive values favour {a}")


def omnibus_words(res, alpha) -> str:
    return (f"{res.method}: p = {res.pvalue:.3g} "
            + ("— the models' error rates differ." if res.pvalue < alpha
               else "— no significant difference among the error rates."))


def pair_words(res: PairwiseResult, losses, quantity, shown=None) -> list[str]:
    """Sentences of the pairs ``res`` rejects, the better model named by the mean losses;
    with ``shown`` (:func:`._pair_choice.shown_pairs`) those of the chosen pairs only, and
    how many of all differ when some are not shown."""
    visible, count = said_pairs(res.method, res, shown)
    out = [conclusion(res.method, res.names[i], res.names[j], decision=True,
                      values=(losses[res.names[i]].mean(), losses[res.names[j]].mean()),
                      quantity=quantity, higher_is_better=False,
                      evidence=f"Holm-adjusted p = {res.pvalue_adjusted[i, j]:.3g}")
           for i, j in visible]
    if not (visible or count):
        return [f"{res.method}: no pair differs significantly at α = {res.alpha}."]
    return out + ([] if count is None else [count])


def chosen_pair_words(post: dict, key: str, losses, quantity, summary, control, pairs
                      ) -> tuple[list[str], dict]:
    """:func:`pair_words` of ``post[key]`` for the pairs :func:`._pair_choice.report_pairs`
    chooses on the summary's ranking, and that choice (the report's ``details["pairs"]``)."""
    res = post[key]
    chosen = report_pairs([row["model"] for row in summary], res.names, post, control=control,
                          pairs=pairs)
    return pair_words(res, losses, quantity, shown_pairs(res.names, chosen)), chosen
