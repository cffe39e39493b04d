"""Groups of models that are not significantly different: the bars of a CD diagram.

Demšar (2006, §3.2.4, Figure 1(a)) draws the models on an axis of average ranks and joins by
a thick bar "the groups of algorithms that are not significantly different". This module
computes those bars from any all-pairs post-hoc decision (Nemenyi, Wilcoxon–Holm, ...).
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, as_float_array


def nonsignificant_groups(average_ranks, reject) -> list[tuple[int, ...]]:
    """Maximal groups of models joined by a bar in a critical-difference diagram.

    Sort the models by average rank (best first). A *group* is a contiguous run of models in
    that order in which no pair is rejected; the result keeps the runs that are not contained
    in another run and have at least two members.

    This contiguous-run definition is what a CD diagram can draw: a bar covers an interval
    of the rank axis, so it joins every model in between. For the Nemenyi test it is exactly
    "every model within one critical difference of the group's best member". For tests
    whose decisions do not follow rank distances (pairwise Wilcoxon signed-rank with Holm's
    correction, as in Benavoli et al. 2016), non-rejection is not transitive: A ~ B and
    B ~ C do not imply A ~ C, and a pair far apart in rank may be retained while a closer
    pair is rejected. The runs guarantee that no rejected pair ever shares a bar; the price
    is that a retained pair whose run contains a rejected pair is not joined by any bar.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average rank of each model (rank 1 = best).
    reject : array_like of bool, shape (k, k)
        ``reject[i, j]`` is True when models ``i`` and ``j`` differ significantly. It must be
        symmetric; the diagonal is ignored.

    Returns
    -------
    list of tuple of int
        Indices of the models of each group, each group in rank order (best first), the
        groups ordered by their best member's rank. Models tied on average rank are ordered
        by index.

    Raises
    ------
    InvalidInputError
        Ranks not 1-D or not finite, ``reject`` not a symmetric k x k boolean matrix.

    Notes
    -----
    Source: Demšar (2006), *Statistical comparisons of classifiers over multiple data sets*,
    JMLR 7, §3.2.4 and Figure 1(a); Benavoli, Corani & Mangili (2016), JMLR 17, §4 (Wilcoxon
    with Holm correction in CD diagrams).

    Examples
    --------
    Demšar Table 6 (C4.5, C4.5+m, C4.5+cf, C4.5+m+cf), Nemenyi at α = 0.10, CD = 1.12:

    >>> import numpy as np
    >>> ranks = np.array([3.143, 2.000, 2.893, 1.964])
    >>> reject = np.abs(ranks[:, None] - ranks[None, :]) >= 1.12
    >>> nonsignificant_groups(ranks, reject)
    [(3, 1, 2), (2, 0)]
    """
    ranks = as_float_array(average_ranks, "average_ranks", ndim=1)
    k = ranks.size
    rej = np.asarray(reject)
    if rej.shape != (k, k):
        raise InvalidInputError(
            f"reject must be a {k} x {k} matrix (one row and column per model), "
            f"got shape {rej.shape}."
        )
    if rej.dtype != bool:
        if not np.isin(rej, (0, 1)).all():
            raise InvalidInputError(
                "reject must hold booleans (True = the pair differs significantly); "
                "got other values. NaN entries mean an untested pair: fill them first."
            )
        rej = rej.astype(bool)
    if not np.array_equal(rej, rej.T):
        i, j = np.argwhere(rej != rej.T)[0]
        raise InvalidInputError(
            f"reject must be symmetric, but reject[{i}, {j}] != reject[{j}, {i}]. Pass an "
            "all-pairs decision matrix, not a comparison with a control."
        )
    order = np.argsort(ranks, kind="stable")
    upper = np.triu(rej[np.ix_(order, order)], k=1)
    # A run [i, j] (positions in rank order) is clean iff no rejected pair (a, b) has
    # i <= a < b <= j. The longest clean run from i ends just before the nearest "first
    # rejected partner" of any row a >= i: a reversed cumulative minimum.
    first_partner = np.where(upper.any(axis=1), upper.argmax(axis=1), k)
    end = np.minimum.accumulate(first_partner[::-1])[::-1] - 1
    # end is non-decreasing, so run i is contained in run i-1 unless it reaches further.
    previous_end = np.concatenate(([-1], end[:-1]))
    starts = np.flatnonzero((end > previous_end) & (end > np.arange(k)))
    return [tuple(int(m) for m in order[s:end[s] + 1]) for s in starts]


def groups_from_critical_difference(average_ranks, critical_difference) -> list[tuple[int, ...]]:
    """Groups of models whose average ranks differ by less than a critical difference.

    Two models differ significantly when their average ranks differ by at least the critical
    difference (Demšar 2006, §3.2.2, Nemenyi); the groups are then those of
    :func:`nonsignificant_groups`: maximal runs, in rank order, spanning less than ``cd``.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average rank of each model (rank 1 = best).
    critical_difference : float
        Critical difference of average ranks (positive), e.g. Nemenyi's
        CD = q_α sqrt(k(k+1)/(6N)).

    Returns
    -------
    list of tuple of int
        As :func:`nonsignificant_groups`.

    Raises
    ------
    InvalidInputError
        Ranks not 1-D or not finite, critical difference not a positive finite number.

    Examples
    --------
    Demšar Table 6 ranks, Nemenyi CD at α = 0.05 (1.25) and α = 0.10 (1.12):

    >>> ranks = [3.143, 2.000, 2.893, 1.964]
    >>> groups_from_critical_difference(ranks, 1.25)
    [(3, 1, 2, 0)]
    >>> groups_from_critical_difference(ranks, 1.12)
    [(3, 1, 2), (2, 0)]
    """
    ranks = as_float_array(average_ranks, "average_ranks", ndim=1)
    cd = float(as_float_array(critical_difference, "critical_difference", ndim=0))
    if cd <= 0:
        raise InvalidInputError(f"critical_difference must be positive, got {cd!r}.")
    reject = np.abs(ranks[:, None] - ranks[None, :]) >= cd
    return nonsignificant_groups(ranks, reject)
