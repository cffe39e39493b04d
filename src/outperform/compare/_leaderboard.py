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
from pathlib import Path

import numpy as np
import pandas as pd

from .._cost import check_cost
from .._parallel import scheduler_client
from .._validation import DegenerateDataError, InvalidInputError, check_probability
from ..data._files import read_table
from ..data._columns import (CLUSTER, EXAMPLE, FOLD, MODEL, NON_METRIC, RUN, TASK,
                             canonical_columns, item_column, metric_direction,
                             refuse_stripped_twins)
from ..data._io import read_results
from ..data._results_table import ResultsTable
from ..results._leaderboard import Leaderboard
from ..stats._leaderboard import pairwise_mcnemar
from ..stats._letters import compact_letters
from ..stats._mcb import mcb
from ..stats._mcs import model_confidence_set
from ..stats._pairwise_ttest import pairwise_ttest
from ..stats._rank_sets import rank_sets
from ._details_input import details_scores, pooled_tasks_note
from ._few_units import few_units_note
from ._q1 import LOSSES, per_example_losses, read_predictions

__all__ = ["leaderboard"]

#: Label columns of a per-item table of predictions (``run_experiment(store_predictions=True)``
#: writes ``y_true, y_pred, correct``): never the score.
LABELS = ("y_true", "y_pred")
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
    if isinstance(data, np.ndarray):
        from ..data._arrays import read_item_array

        data = read_item_array(data, metric=metric)
    # a folder of Hugging Face details: streamed, projected, bit-packed (data/_evals/_stream)
    items = details_scores(data, metric=metric, cluster=cluster, task=task,
                           progress=progress, notes=notes)
    df = data if isinstance(data, (pd.DataFrame, ResultsTable)) or items is not None \
        else _read(data, encoding)
    if task is not None and items is None:
        df = _one_task(df, task, notes)
    if items is not None:
        scores, names, clusters, metric = items
        hib, source, unit = _direction(metric, higher_is_better, notes), "per-item scores", "item"
    elif isinstance(df, ResultsTable):
        scores, names, metric, hib = _from_tasks(df, metric, higher_is_better, notes)
        clusters, source, unit = None, "per-task scores", "task"
    elif y_true in df.columns and not {MODEL, EXAMPLE} <= set(df.columns):
        scores, names, clusters, metric, hib = _from_predictions(df, y_true, loss, cluster, notes)
        source, unit = "per-example predictions", "item"
    else:
        df = _item_ids_as_examples(canonical_columns(df))
        if MODEL in df.columns and EXAMPLE in df.columns:
            scores, names, clusters, metric, hib = _from_items(df, metric, higher_is_better,
                                                               cluster, notes)
            source, unit = "per-item scores", "item"
        else:
            scores, names, metric, hib = _from_tasks(df, metric, higher_is_better, notes)
            clusters, source, unit = None, "per-task scores", "task"
            if cluster is not None:
                raise InvalidInputError(
                    f"cluster={cluster!r} applies to per-item scores (an 'example' column), "
                    "but this is a table of one score per task: the tasks are resampled.")
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


def _item_ids_as_examples(df: pd.DataFrame) -> pd.DataFrame:
    """A long table whose item ids are named as evaluation logs name them (``item``, ``id``,
    ``doc_id``, ``sample_id``: :func:`outperform.data.read_eval_logs`' names) gets them as
    its ``example`` column; per-fold tables (run/fold columns) are left alone."""
    item = item_column(df.columns)
    if MODEL not in df.columns or EXAMPLE in df.columns or item is None \
            or {RUN, FOLD} & set(df.columns):
        return df
    return df.rename(columns={item: EXAMPLE})


def _read(path, encoding) -> pd.DataFrame:
    if not isinstance(path, (str, Path)):
        raise InvalidInputError("data must be a file path or a pandas DataFrame, got "
                                f"{type(path).__name__}.")
    return read_table(path, encoding=encoding)


def _cluster_column(df: pd.DataFrame, cluster: str | None) -> str | None:
    if cluster is None:
        return CLUSTER if CLUSTER in df.columns else None
    if cluster not in df.columns:
        raise InvalidInputError(f"no cluster column {cluster!r}; columns are {list(df.columns)}.")
    return cluster


def _from_predictions(df, y_true, loss, cluster, notes):
    losses_ok = tuple(x for x in LOSSES if x != "given")
    if loss not in losses_ok:
        raise InvalidInputError(
            f"loss must be one of {losses_ok} for predictions, got {loss!r}; per-item losses "
            "already computed go in a long table (model, example, loss).")
    col = _cluster_column(df, cluster)
    if TASK in df.columns:          # its rows are the items: the tasks pooled, as per-item
        if df[TASK].nunique() > 1:
            notes.append(pooled_tasks_note(df.groupby(TASK, sort=False).size().to_dict()))
            if col is not None:
                df = df.assign(**{col: df[TASK].astype(str) + "/" + df[col].astype(str)})
        df = df.drop(columns=TASK)
    y, preds, groups = read_predictions(df, y_true=y_true, cluster=col)
    names = tuple(preds)
    losses = np.column_stack([per_example_losses(y, p, loss) for p in preds.values()])
    if loss == "zero-one":
        return 1.0 - losses, names, groups, "accuracy", True
    return losses, names, groups, f"{loss} loss", False


def _score_column(df, metric, keys) -> str:
    if metric is not None:
        if metric not in df.columns:
            raise InvalidInputError(f"no score column {metric!r}; columns are {list(df.columns)}.")
        return metric
    candidates = [c for c in df.columns if c not in keys and c not in NON_METRIC
                  and pd.api.types.is_numeric_dtype(df[c])]
    if "score" in candidates:
        return "score"
    if len(candidates) != 1:
        raise InvalidInputError(
            f"cannot tell the score column among {candidates or list(df.columns)}: name it "
            "with metric= (--metric).")
    return candidates[0]


def _direction(metric, higher_is_better, notes) -> bool:
    if higher_is_better is not None:
        return bool(higher_is_better)
    known = metric_direction(metric)
    if known is None:
        notes.append(f"the direction of {metric!r} is not known from its name: higher is "
                     "taken as better (say otherwise with higher_is_better=False).")
        return True
    return known


def _runs(df, notes) -> None:
    """Per-example predictions of a resampling experiment (``run_experiment``'s predictions
    table): one run only, and say that the folds' predictors differ."""
    if RUN in df.columns and df[RUN].nunique() > 1:
        raise InvalidInputError(
            f"the per-item table holds {df[RUN].nunique()} runs (column {RUN!r}) of a "
            "resampling design, so each example has several scores per model: a leaderboard "
            "ranks the models on one set of examples; keep the rows of one run (e.g. run 0).")
    if FOLD in df.columns and df[FOLD].nunique() > 1:
        notes.append(f"the examples were predicted in {df[FOLD].nunique()} folds of one "
                     "cross-validation run, each by the model trained without its fold: the "
                     "ranks are of these out-of-fold predictions (of the learning algorithms "
                     "at this training-set size), not of one trained predictor per model.")


def _one_task(df, task, notes):
    """The rows of one task of a per-item or predictions table."""
    if isinstance(df, ResultsTable) or TASK not in df.columns:
        raise InvalidInputError(f"task={task!r} selects one task of a per-item or predictions "
                                "table with a 'task' column; this input has none.")
    keep = df[TASK].astype(str) == str(task)
    if not keep.any():
        tasks = sorted(df[TASK].astype(str).unique())
        raise InvalidInputError(f"task {task!r} is not in the table; its tasks are "
                                f"{', '.join(map(repr, tasks[:10]))}"
                                + (f" and {len(tasks) - 10} more." if len(tasks) > 10 else "."))
    notes.append(f"task {task!r} only ({int(keep.sum())} of {len(df)} rows).")
    return df.loc[keep].drop(columns=TASK).reset_index(drop=True)


def _from_items(df, metric, higher_is_better, cluster, notes):
    refuse_stripped_twins(pd.unique(df[MODEL].astype(str)), MODEL)
    col = _cluster_column(df, cluster)
    if TASK in df.columns and df[TASK].nunique() > 1:
        df = _pooled_tasks(df, col, notes)
    _runs(df, notes)
    metric = _score_column(df, metric, {MODEL, EXAMPLE, TASK, col, *LABELS})
    values = pd.to_numeric(df[metric], errors="coerce")
    if values.isna().any():
        row = int(np.flatnonzero(values.isna().to_numpy())[0])
        raise InvalidInputError(f"score column {metric!r} has a missing or non-numeric value "
                                f"in row {row}: every model needs a score on every example.")
    if df.duplicated([MODEL, EXAMPLE]).any():
        first = df.loc[df.duplicated([MODEL, EXAMPLE]), [MODEL, EXAMPLE]].iloc[0].tolist()
        raise InvalidInputError(f"model {first[0]!r} has several rows for example {first[1]!r}: "
                                "give one score per (model, example).")
    examples, example_names = pd.factorize(df[EXAMPLE])
    names = tuple(pd.unique(df[MODEL].astype(str)))
    codes = pd.Categorical(df[MODEL].astype(str), categories=list(names)).codes
    wide = np.full((len(example_names), len(names)), np.nan)
    wide[examples, codes] = values.to_numpy(dtype=float)
    if np.isnan(wide).any():
        i, j = np.argwhere(np.isnan(wide))[0]
        raise InvalidInputError(
            f"{int(np.isnan(wide).sum())} (example, model) scores are missing, e.g. model "
            f"{names[j]!r} on example {example_names[i]!r}: the comparison is paired, every "
            "model needs a score on every example.")
    clusters = None
    if col is not None:
        per_example = df.groupby(examples)[col].nunique(dropna=False)
        if (per_example > 1).any():
            bad = example_names[int(per_example.index[np.argmax(per_example.to_numpy() > 1)])]
            raise InvalidInputError(f"example {bad!r} is in several clusters of column "
                                    f"{col!r}: a cluster must hold whole examples.")
        clusters = df[col].to_numpy()[np.unique(examples, return_index=True)[1]]
    return wide, names, clusters, metric, _direction(metric, higher_is_better, notes)


def _pooled_tasks(df, col, notes):
    """A per-item table of several tasks as one: item ``task/example``, clusters within tasks."""
    sizes = df.drop_duplicates([TASK, EXAMPLE]).groupby(TASK, sort=False).size()
    notes.append(pooled_tasks_note({str(t): int(n) for t, n in sizes.items()}))
    task = df[TASK].astype(str) + "/"
    df = df.assign(**{EXAMPLE: task + df[EXAMPLE].astype(str)})
    if col is not None:
        df[col] = task + df[col].astype(str)
    return df.drop(columns=TASK)


def _from_tasks(df, metric, higher_is_better, notes):
    table = read_results(df, metric=metric, higher_is_better=higher_is_better)
    sm = table.score_matrix(metric)
    if sm.aggregation != "one value per cell":
        notes.append(f"per-task scores: {sm.aggregation}.")
    if sm.metric in table.direction_assumed:
        notes.append(f"the direction of {sm.metric!r} is not known from its name: higher is "
                     "taken as better (say otherwise with higher_is_better=False).")
    return sm.values, sm.models, sm.metric, sm.higher_is_better


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
