"""Leaderboards: many models ranked with rank confidence sets, tiers and paired tests.

Reads three inputs into one items x models score matrix (docs/design.md):
per-item scores in the tidy schema (``model``, ``example``, a score column, optional
``cluster``), per-example predictions (``y_true`` and one column per model, as
:func:`outperform.compare.compare_predictions` reads them), or one score per (task, model)
(the Q3 table, long or wide, optional runs/folds averaged), where tasks are the resampled
unit. Then :func:`outperform.stats.rank_sets` gives the rank sets and tiers, and the paired
tests of all pairs give the compact letter display.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._cost import check_cost
from .._parallel import scheduler_client
from .._validation import DegenerateDataError, check_probability
from ..results._leaderboard import Leaderboard
from ..stats._leaderboard import pairwise_mcnemar
from ..stats._letters import compact_letters
from ..stats._mcb import mcb
from ..stats._mcs import model_confidence_set
from ..stats._pairwise_ttest import pairwise_ttest
from ..stats._rank_sets import rank_sets
from ._few_units import few_units_note
from ._leaderboard_inputs import leaderboard_scores

__all__ = ["leaderboard"]

#: Largest items x models^2 for which the wins of every pair (``pairwise.details["wins"]``,
#: the multiple comparison matrix's counts) are counted beside the paired t-tests.
_WINS_UP_TO = 50_000_000
#: Models (the best estimates) given compact letters.
LETTERS_MAX = 50


def leaderboard(data, *, cluster: str | None = None, metric: str | None = None,
                higher_is_better: bool | None = None, alpha: float = 0.05,
                n_resamples: int = 1000, weights: str = "multinomial", random_state=0,
                y_true: str = "y_true", loss: str = "zero-one", adjustment: str = "holm",
                encoding: str | None = None, progress: bool = False,
                task: str | None = None, mcs: bool = False, mcs_statistic: str = "R",
                block_size: int = 1, bootstrap: str = "stationary",
                scheduler=None) -> Leaderboard:
    """Rank many models with simultaneous rank confidence sets, tiers and letters.

    Parameters
    ----------
    data : str, Path, DataFrame, ResultsTable or ndarray
        A 2-D numpy array holds per-item scores, rows = items, columns = models (named
        ``model_0``, ...; a warning says when it looks transposed). Or one of: (a) per-item scores, long: columns ``model``, ``example`` (or ``item``,
        ``id``, ``doc_id``, ``sample_id``, as evaluation logs name it) and a score column
        (``score``, ``correct``, ``accuracy``, ... or ``metric=``), optional ``cluster`` (and
        ``task``: several are pooled); (b) per-example predictions: ``y_true`` and one prediction column
        per model (see :func:`outperform.compare.compare_predictions`); (c) one score per
        (task, model), long or wide, as :func:`outperform.data.read_results` reads it (runs
        and folds of a cell averaged): the tasks are then the resampled unit. Or (d) a folder
        of Hugging Face details files (lighteval, the Open LLM Leaderboard; or a list of
        them), streamed by :func:`outperform.data._evals._stream.stream_details` (projected,
        0/1 scores bit-packed): the items of all tasks pooled, or of ``task``.
    cluster : str, optional
        Column of cluster labels of the items (passages, conversations, problems): clusters
        are resampled whole and standard errors are cluster-robust (Miller 2024). Default: a
        column named ``cluster`` if there is one. A cluster must hold whole items: an
        example in two clusters is refused.
    metric, higher_is_better : optional
        The score column of a long table, and its direction when the name does not tell
        (unknown names are taken as higher-is-better, with a note).
    alpha : float
        1 - confidence level of the rank sets; level of the pairwise tests.
    n_resamples, weights, random_state, progress :
        Bootstrap settings of :func:`outperform.stats.rank_sets` (seeded with 0 by
        default, so a leaderboard is reproducible).
    y_true, loss :
        For predictions: the column of true labels and the per-example loss,
        ``"zero-one"`` (gives accuracy), ``"log"``, ``"squared"`` or ``"absolute"`` (losses,
        lower is better).
    adjustment : str
        Multiplicity adjustment of the pairwise tests (default Holm).
    encoding : str, optional
        Encoding of a text file that is not UTF-8.
    task : str, optional
        Rank on this task only, for a per-item or predictions table with a ``task`` column
        holding several tasks (as ``outperform benchmark --predictions`` writes), or a details
        folder. Without it, the items of a per-item table's or a folder's tasks are pooled
        (item ``task/example``, tasks weighted by their item counts; a note says so).
    mcs : bool
        Also the model confidence set (Hansen, Lunde & Nason 2011) at 1 - ``alpha`` from
        ``n_resamples`` block-bootstrap resamples of the same units (clusters whole), seeded
        by ``random_state``: :func:`outperform.stats.model_confidence_set`. Needs arch
        (``pip install 'outperform[mcs]'``).
    mcs_statistic, block_size, bootstrap :
        Its statistic (``"R"`` or ``"max"``), block length (1: independent items or tasks)
        and block bootstrap (``"stationary"`` or ``"circular"``).
    scheduler : None, str or dask.distributed.Client
        The rank sets' bootstrap on this Dask cluster (``tcp://HOST:PORT`` or a client): the
        local run's leaderboard to the bit (:func:`outperform.stats.rank_sets`); the rest,
        the model confidence set included, runs here.

    Returns
    -------
    Leaderboard
        With ``best``: Hsu's multiple comparisons with the best (:func:`outperform.stats.mcb`,
        items or tasks as blocks, at level 1 − ``alpha``), the "could be the best" column;
        None with clusters.

    Raises
    ------
    InvalidInputError
        Unreadable input, missing columns or cells, an example with several scores of one
        model or in several clusters, NaN scores; no usable Dask cluster at ``scheduler``.
    TooFewError
        Fewer than 2 models, items or clusters.

    Warns
    -----
    UserWarning
        Fewer than 10 items, clusters or tasks: the rank sets' coverage is far below its
        level (a note says so below 100 of them; docs/tutorial-leaderboards.md, "How many
        items are enough").

    Examples
    --------
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> acc = {"A": 0.9, "B": 0.9, "C": 0.8}
    >>> rows = [{"model": m, "example": i, "correct": int(rng.random() < p)}
    ...         for m, p in acc.items() for i in range(600)]
    >>> board = leaderboard(pd.DataFrame(rows))
    >>> print(board.to_frame()[["model", "rank", "simultaneous_low", "simultaneous_high",
    ...                   "tier", "letters"]].to_string(index=False))
    model  rank  simultaneous_low  simultaneous_high  tier letters
        B     1                 1                  2     1       a
        A     2                 1                  2     1       a
        C     3                 3                  3     2       b
    """
    check_probability(alpha, "alpha")
    notes: list[str] = []
    scores, names, clusters, metric, hib, source, unit = leaderboard_scores(
        data, metric=metric, higher_is_better=higher_is_better, cluster=cluster, task=task,
        y_true=y_true, loss=loss, encoding=encoding, progress=progress, notes=notes)
    _cost(n_resamples, scores, clusters, unit)
    confidence_set = None
    with scheduler_client(scheduler) as client:   # a bad address fails before any bootstrap
        if mcs:     # first: its options are checked before the rank sets' bootstrap runs
            confidence_set = model_confidence_set(
                scores, alpha=alpha, statistic=mcs_statistic, bootstrap=bootstrap,
                block_size=block_size, n_resamples=n_resamples, clusters=clusters,
                names=names, higher_is_better=hib, unit=unit, random_state=random_state)
        rs = rank_sets(scores, clusters=clusters, names=names, higher_is_better=hib,
                       alpha=alpha, n_resamples=n_resamples, weights=weights, unit=unit,
                       random_state=random_state, progress=progress, scheduler=client)
    pairwise = _pairwise(scores, clusters, names, hib, adjustment, alpha)
    # Piepho's insert-absorb algorithm grows steeply with k (minutes at 200 models): the
    # letters are given among the best LETTERS_MAX models, where a reader looks for them.
    order = rs.order[:LETTERS_MAX]
    letters = compact_letters(pairwise.reject[np.ix_(order, order)],
                              [names[j] for j in order])
    if len(names) > LETTERS_MAX:
        letters.update({names[j]: "" for j in rs.order[LETTERS_MAX:]})
        notes.append(f"compact letters compare the {LETTERS_MAX} best-estimated models "
                     "among themselves; the tiers and rank sets cover all of them.")
    if clusters is not None:
        deff = float(np.median(rs.design_effect))
        notes.append(f"{rs.n_clusters} clusters resampled whole; the cluster-robust standard "
                     f"errors are {np.sqrt(deff):.2f} times those that treat the items as "
                     f"independent (design effect {deff:.2f}, median over models).")
    few = few_units_note(rs)
    if few is not None:
        notes.append(few)
    best = _best(scores, clusters, names, hib, alpha, unit, notes)
    return Leaderboard(rank_sets=rs, pairwise=pairwise, letters=letters, metric=metric,
                       source=source, notes=tuple(notes), best=best,
                       mcs=confidence_set)


def _best(scores, clusters, names, hib, alpha, unit, notes):
    """Hsu's comparisons with the best of the same score matrix, items (tasks) as blocks:
    the leaderboard's "could be the best" column. Not with clusters, whose items are not
    independent blocks; not when the residual variance is 0 (a note says why)."""
    if clusters is not None:
        notes.append("Hsu's comparisons with the best (the 'could be the best' column) are "
                     "not computed with clusters: its two-way ANOVA error assumes independent "
                     "items; the tiers (cluster bootstrap) answer the same question.")
        return None
    try:
        return mcb(scores, higher_is_better=hib, alpha=alpha, names=names, unit=unit)
    except DegenerateDataError:
        notes.append("Hsu's comparisons with the best are not computed: the scores are "
                     "exactly additive in item and model (zero residual variance).")
        return None


def _cost(n_resamples, scores, clusters, unit) -> None:
    """Refuse (check_cost) rank sets whose resamples will not fit in memory or in an hour.

    Measured on :func:`outperform.stats.rank_sets`: ~60-72 bytes per resample and model
    (the resampled deviations and the step-down's copies), and per resample 22-52 ns per
    unit (the weights drawn) plus ~3.5 ns per pair of models (the step-down), on 3-50
    models and 50-5,000 units; the estimate takes 20 and 3 ns.
    """
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)):
        return    # rank_sets refuses it by name
    n_units = int(np.unique(np.asarray(clusters)).size) if clusters is not None \
        else int(scores.shape[0])
    k = int(scores.shape[1])
    check_cost("n_resamples (--n-resamples)", n_resamples,
               work=f"{n_units:,} {unit if clusters is None else 'cluster'}s x {k} models",
               bytes_per_unit=64 * k, seconds_per_unit=2e-8 * n_units + 3e-9 * k * k)


def _pairwise(scores, clusters, names, hib, adjustment, alpha):
    binary = np.isin(scores, (0.0, 1.0)).all()
    if binary and clusters is None:
        correct = ((scores == 1.0) if hib else (scores == 0.0)).T
        res = pairwise_mcnemar(correct, names=names, adjustment=adjustment, alpha=alpha)
        # statistic[i, j] = n01 (i wrong, j right), so row i's wins over j are statistic[j, i].
        return replace(res, details={**res.details, "wins": res.statistic.T.copy()})
    res = pairwise_ttest(scores, clusters=clusters, names=names, higher_is_better=hib,
                         adjustment=adjustment, alpha=alpha)
    n, k = scores.shape
    if n * k * k > _WINS_UP_TO:
        return res
    y = scores if hib else -scores
    # One (n, k) comparison per model: k vectorised steps, not a loop over items or pairs.
    wins = np.stack([(y[:, [i]] > y).sum(axis=0) for i in range(k)]).astype(float)
    return replace(res, details={**res.details, "wins": wins})
