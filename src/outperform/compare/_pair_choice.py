"""Which pairs of models a comparison computes and prints in full: the one rule (issue 31).

With k models there are k(k − 1)/2 pairs: 1,225 for 50 models, more than anyone reads. A
comparison computes and prints in full the pairs a reader can use — each model against the
``control`` when one is named, else every pair when there are few models, else the neighbours
in the ranking (the 1st against the 2nd, the 2nd against the 3rd, ...) — and summarises the
rest (how many of all pairs differ); ``pairs="all"`` asks for every pair.
"""
from __future__ import annotations

from itertools import combinations

from .._validation import InvalidInputError

#: the values of ``pairs=`` / ``--pairs``
PAIRS = ("all", "neighbours", "control")
#: at most this many models: every pair by default (6 models: 15 pairs)
ALL_PAIRS_UP_TO = 6


def choose_pairs(ranking, *, control: str | None = None, pairs: str | None = None,
                 order=None) -> tuple[list[tuple[str, str]], str]:
    """The pairs (X, Y) to compute in full and the rule that chose them.

    Parameters
    ----------
    ranking : sequence of str
        The models, best first (ties in any order).
    control : str, optional
        Pairs (model, control) for every other model when ``pairs`` is None or "control".
    pairs : {"all", "neighbours", "control"} or None
        None: "control" with a control, else "all" up to :data:`ALL_PAIRS_UP_TO` models, else
        "neighbours". "all": every pair (X before Y in ``ranking``'s order). "neighbours":
        consecutive models of the ranking, the better one first.
    order : sequence of str, optional
        The order of "all" and "control" pairs (e.g. the table's); ``ranking`` by default.

    Returns
    -------
    (list of (str, str), str)
        The pairs, and the rule in words for the report.

    Raises
    ------
    InvalidInputError
        An unknown ``pairs`` value, or "control" without a control.

    Examples
    --------
    >>> choose_pairs(["c", "a", "b", "d", "e", "f", "g"])
    ([('c', 'a'), ('a', 'b'), ('b', 'd'), ('d', 'e'), ('e', 'f'), ('f', 'g')], 'neighbours in the ranking')
    >>> choose_pairs(["c", "a", "b"], control="b")[0]
    [('c', 'b'), ('a', 'b')]
    """
    models = list(ranking)
    listed = models if order is None else list(order)
    if pairs is not None and pairs not in PAIRS:
        raise InvalidInputError(f"pairs={pairs!r}: choose one of {', '.join(PAIRS)}.")
    if pairs == "control" and control is None:
        raise InvalidInputError("pairs='control' (--pairs control) needs a control model "
                                "(control=, --control).")
    if pairs is None:
        pairs = ("control" if control is not None else
                 "all" if len(models) <= ALL_PAIRS_UP_TO else "neighbours")
    if pairs == "control":
        return [(m, control) for m in listed if m != control], f"each model against {control}"
    if pairs == "all":
        return list(combinations(listed, 2)), "every pair"
    from ..results._runs import NEIGHBOURS      # on use: `outperform --help` stays light

    return list(zip(models[:-1], models[1:])), NEIGHBOURS
