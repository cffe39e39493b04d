"""Cycles in a table of pairwise "better than" probabilities (Lacoste et al. 2012, §5.1).

"Better on a data set drawn from the context" is not transitive, so the pairwise results of
the Bayesian tests over data sets (Poisson-binomial, Poisson, Bayesian sign and signed-rank)
can hold A > B > C > A; those models cannot be ranked, and the reports say so.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._validation import InvalidInputError, as_float_array
from .._names import model_names

__all__ = ["find_cycles"]


def find_cycles(prob, *, threshold: float = 0.5, names: Sequence[str] | None = None
                ) -> list[tuple]:
    """Cycles of the relation "row better than column" in a pairwise probability table.

    Model i is taken to beat model j when ``prob[i, j] > threshold``. Lacoste et al. (2012,
    §5.1) show that "better in a context" is not transitive, so a table can hold
    A > B > C > A, and such models cannot be ranked.

    The number of cycles can grow exponentially with the number of models, so this returns,
    for every model that lies on a cycle, one shortest cycle through it (breadth-first
    search, ties broken by model order), without repeats. A table has a cycle exactly when
    this list is non-empty.

    Parameters
    ----------
    prob : array_like, shape (k, k)
        ``prob[i, j]`` = P(model i better than model j); the diagonal is ignored.
    threshold : float
        An edge i -> j exists when ``prob[i, j] > threshold``.
    names : sequence of str, optional
        Model names; by default cycles are given as indices.

    Returns
    -------
    list of tuple
        Each cycle (m_1, m_2, ..., m_L) means m_1 > m_2 > ... > m_L > m_1; it starts at its
        first model in table order; shortest cycles first.

    Raises
    ------
    InvalidInputError
        Non-square or non-finite table (the diagonal may be NaN), bad names.

    Examples
    --------
    Lacoste et al. (2012) Figure 2:

    >>> p = [[np.nan, 0.69, 0.31], [0.31, np.nan, 0.69], [0.69, 0.31, np.nan]]
    >>> find_cycles(p, names=["A", "B", "C"])
    [('A', 'B', 'C')]
    >>> find_cycles([[0.5, 0.9], [0.1, 0.5]])
    []
    """
    arr = np.array(prob, dtype=float)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise InvalidInputError(f"prob must be a square (k, k) table, got shape {arr.shape}.")
    k = arr.shape[0]
    np.fill_diagonal(arr, 0.0)
    as_float_array(arr, "prob")
    labels = None if names is None else model_names(names, k)
    edges = arr > threshold
    np.fill_diagonal(edges, False)
    from scipy.sparse.csgraph import connected_components

    _, component = connected_components(edges, directed=True, connection="strong")
    sizes = np.bincount(component)
    found = set()
    for start in range(k):
        if sizes[component[start]] < 2:
            continue
        parent = {start: None}
        frontier, last = [start], None
        while frontier and last is None:
            nxt = []
            for v in frontier:
                if edges[v, start]:
                    last = v
                    break
                for w in np.flatnonzero(edges[v]):
                    if w not in parent and component[w] == component[start]:
                        parent[int(w)] = v
                        nxt.append(int(w))
            frontier = nxt
        path = []
        while last is not None:
            path.append(last)
            last = parent[last]
        cycle = path[::-1]
        first = int(np.argmin(cycle))
        found.add(tuple(cycle[first:] + cycle[:first]))
    cycles = sorted(found, key=lambda c: (len(c), c))
    if labels is not None:
        return [tuple(labels[i] for i in c) for c in cycles]
    return [tuple(int(i) for i in c) for c in cycles]
