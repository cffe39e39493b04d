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


def shown_mask(names, chosen):
    """k x k boolean matrix, True at (i, j) and (j, i) for each chosen pair (X, Y).

    ``names`` gives the rows and columns (a result's ``names``); ``chosen`` the pairs of
    :func:`choose_pairs`.

    >>> shown_mask(["a", "b", "c"], [("c", "a")]).astype(int).tolist()
    [[0, 0, 1], [0, 0, 0], [1, 0, 0]]
    """
    import numpy as np

    index = {m: j for j, m in enumerate(names)}
    mask = np.zeros((len(index), len(index)), dtype=bool)
    if chosen:
        rows, cols = np.array([[index[x], index[y]] for x, y in chosen]).T
        mask[rows, cols] = mask[cols, rows] = True
    return mask


def report_pairs(ranking, names, posthoc, *, control=None, pairs=None) -> dict:
    """The pairs a report shows in full, and the count of significant pairs of each post-hoc
    result over all the pairs it tests (``details["pairs"]`` of a ComparisonReport).

    Parameters
    ----------
    ranking : sequence of str
        The models, best first (the report's summary order).
    names : sequence of str
        The models in the order of the post-hoc matrices.
    posthoc : mapping of str to PairwiseResult
    control, pairs
        As in :func:`choose_pairs`. By default with a control, a procedure that tests all
        pairs run beside it (``posthoc=("nemenyi", "holm")``) also shows the pairs of the
        rule without a control (every pair up to 6 models, else neighbours).

    Returns
    -------
    dict
        ``rule`` (in words), ``chosen`` (the pairs [X, Y], X the better-ranked unless the
        rule is "control"), ``shown`` and ``total`` (their number, and k(k − 1)/2),
        ``tested`` and ``differing`` (per post-hoc key: the pairs it tests, the pairs it
        rejects, counted over its own matrix whatever is shown).
    """
    import numpy as np

    chosen, rule = choose_pairs(ranking, control=control, pairs=pairs, order=names)
    if pairs is None and control is not None and any(r.control is None for r in posthoc.values()):
        # an all-pairs procedure asked for beside the control: its pairs by the rule without
        # a control, the control's pairs as well
        more, how = choose_pairs(ranking, order=names)
        known = {frozenset(p) for p in chosen}
        chosen += [p for p in more if frozenset(p) not in known]
        rule = f"{rule}, and {how} for the tests of all pairs"
    k = len(names)
    tested, differing = {}, {}
    for key, res in posthoc.items():
        idx = res.pairs()
        tested[key] = len(idx)
        if idx:
            rows, cols = np.array(idx).T
            reject = np.asarray(res.reject, dtype=bool)
            differing[key] = int(reject[rows, cols].sum())
        else:
            differing[key] = 0
    return {"rule": rule, "chosen": [[x, y] for x, y in chosen], "shown": len(chosen),
            "total": k * (k - 1) // 2, "tested": tested, "differing": differing}


def shown_pairs(names, chosen: dict) -> dict:
    """``{"mask": k x k bool, "rule": str}`` of a :func:`report_pairs` result, the form the
    sentence writers take (``shown=``)."""
    return {"mask": shown_mask(names, chosen["chosen"]), "rule": chosen["rule"]}


def count_sentence(what: str, differing: int, tested: int, shown: int, rule: str,
                   verb: str = "differ significantly") -> str:
    """The sentence that summarises the pairs not shown: how many of all pairs differ.

    >>> print(count_sentence("Nemenyi", 35, 66, 11, "neighbours in the ranking"))
    Nemenyi: 35 of all 66 pairs differ significantly; 11 pairs are shown (neighbours in the
    ranking; every pair with pairs='all', --pairs all).
    """
    return (f"{what}: {differing:,} of all {tested:,} pairs {verb}; "
            f"{shown:,} pair{'' if shown == 1 else 's'} {'is' if shown == 1 else 'are'} shown "
            f"({rule}; every pair with pairs='all', --pairs all).")


def hidden_pairs(what: str, res, n_rejected: int, shown):
    """The count sentence of ``res`` when ``shown`` hides some of the pairs it tests
    (``res.pairs()``), of which ``n_rejected`` differ significantly; else None."""
    import numpy as np

    if shown is None:
        return None
    tested = np.array(res.pairs(), dtype=int).reshape(-1, 2)
    visible = int(shown["mask"][tested[:, 0], tested[:, 1]].sum())
    if visible == len(tested):
        return None
    return count_sentence(what, n_rejected, len(tested), visible, shown["rule"])


def said_pairs(what: str, res, shown) -> tuple[list[tuple[int, int]], str | None]:
    """The rejected pairs (i, j) of ``res`` to state in words — those ``shown`` keeps (all
    without ``shown``), in the order of ``res.pairs()`` — and the count sentence
    (:func:`hidden_pairs`) when some pairs are not shown, else None."""
    rejected = [(i, j) for i, j in res.pairs() if res.reject[i, j]]
    count = hidden_pairs(what, res, len(rejected), shown)
    if count is None:
        return rejected, None
    return [(i, j) for i, j in rejected if shown["mask"][i, j]], count
