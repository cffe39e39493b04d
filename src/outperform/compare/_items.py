"""Item diagnostics of evaluation logs: which items tell the models apart, how much signal a
benchmark and each of its subtasks carry over their noise (Heineman et al. 2025), and the
models' abilities under a Rasch or 2PL item response model that takes a sparse model x item
matrix (models that did not answer every item).

Reads what :func:`outperform.data.read_eval_logs` reads (lm-eval samples, Inspect logs,
HELM runs, long tables ``model, task, item, score``); items are (task, example) pairs,
epochs averaged. Unlike :func:`outperform.compare.compare_evals`, items need not be answered
by every model: missing cells are left missing, not refused.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from .._cost import BYTES_PER_ITEM_ROW, ITEM_SECONDS_PER_ROW, check_cost, check_read_cost
from .._validation import DegenerateDataError, InvalidInputError, TooFewError, check_probability
from ..data._columns import item_column, metric_direction
from ..data._evals._long import TABLE_SUFFIXES, is_item_table
from ..data._files import read_table
from ..data._evals._read import read_eval_logs
from ..data._evals._schema import EvalLogs
from ..results._items import ItemDiagnostics
from ..stats._irt import fit_irt
from ..stats._items import (decision_accuracy, item_statistics, signal_to_noise_ratio,
                            top_k_agree)

__all__ = ["item_diagnostics"]

IRT_CHOICES = ("auto", "rasch", "2pl", "none")


def item_diagnostics(data, *, metric: str | None = None, top_k: int = 5, irt: str = "auto",
                     prior_sd: float | None = 3.0, alpha: float = 0.05,
                     n_resamples: int = 1000, n_splits: int = 100, random_state=0,
                     format: str = "auto") -> ItemDiagnostics:
    """Per-item difficulty and discrimination, signal-to-noise per benchmark and subtask, and
    item response abilities of the models.

    Parameters
    ----------
    data : path, sequence of paths, DataFrame or EvalLogs
        Per-item scores of many models: anything :func:`outperform.data.read_eval_logs`
        reads, e.g. a long table with columns ``model``, ``task`` (optional), ``item`` (or
        ``example``, ``id``, ...) and ``score``. Scores in [0, 1], higher is better. A
        model need not answer every item.
    metric : str, optional
        Metric to use (default: each task's first reported one).
    top_k : int
        Items on which the ``top_k`` best models all score the same are flagged
        (``top_agree``): they do not separate the top models.
    irt : {"auto", "rasch", "2pl", "none"}
        Item response model: ``"auto"`` fits the Rasch model to 0/1 scores and none to
        graded ones (with a note); ``"rasch"`` or ``"2pl"`` on graded scores is refused.
    prior_sd : float or None
        Normal prior of the item response model (see :func:`outperform.stats.fit_irt`);
        None: exact joint ML (Rasch only).
    alpha : float
        Intervals of the abilities at level 1 - alpha.
    n_resamples : int
        Bootstrap resamples of the items for the noise of the signal-to-noise ratio.
    n_splits : int
        Random halvings of the items for the split-half decision accuracy.
    random_state : int or Generator
        Seed (default 0: reproducible).
    format : str
        Log format, as :func:`outperform.data.read_eval_logs`.

    Returns
    -------
    ItemDiagnostics

    Raises
    ------
    InvalidInputError
        Unreadable input, an unknown ``irt``, a lower-is-better metric, graded scores with
        ``irt="rasch"``/``"2pl"``, scores outside [0, 1].
    TooFewError
        Fewer than 2 models or 2 items with an answered score.
    DegenerateDataError
        Every answered score is the same (e.g. every model right on every item).

    Notes
    -----
    Signal-to-noise (Heineman et al. 2025, §2): signal is the relative dispersion of the
    models' mean scores, max |m_j - m_k| / mean(m); their noise is the relative standard
    deviation of one model's score over its last training checkpoints, which a matrix of
    final models does not hold. Here the noise is that of the best model's mean score over
    bootstrap resamples of the items (the noise of drawing the benchmark's items), with their
    formula. Decision accuracy (their §2) compares the order of every pair of models by two
    scorings: one random half of the items against the other (split-half), and a subtask
    against all tasks together.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> ability = np.linspace(-1, 1, 8)
    >>> easy = rng.normal(0, 1, 60)
    >>> right = rng.random((8, 60)) < 1 / (1 + np.exp(-(ability[:, None] - easy)))
    >>> rows = [(f"m{i}", j, float(right[i, j])) for i in range(8) for j in range(60)]
    >>> res = item_diagnostics(pd.DataFrame(rows, columns=["model", "item", "score"]))
    >>> res.top_models[:3]
    ('m6', 'm7', 'm4')
    >>> res.counts()
    {'items': 60, 'none_right': 3, 'all_right': 1, 'top_agree': 11, 'negative_discrimination': 10}
    """
    if irt not in IRT_CHOICES:
        raise InvalidInputError(f"irt must be one of {', '.join(IRT_CHOICES)}, got {irt!r}.")
    check_probability(alpha, "alpha")
    for name, value in (("top_k", top_k), ("n_resamples", n_resamples), ("n_splits", n_splits)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise InvalidInputError(f"{name} must be a positive integer, got {value!r}.")
    notes: list[str] = []
    advice = "fewer models or tasks per call"
    in_memory = isinstance(data, (EvalLogs, pd.DataFrame))
    if not in_memory:                                        # files: costed before reading
        check_read_cost(data, what="reading and pairing the per-item scores", advice=advice,
                        seconds_per_row=ITEM_SECONDS_PER_ROW, bytes_per_row=BYTES_PER_ITEM_ROW)
    data = _unanswered(data, notes)
    logs = data if isinstance(data, EvalLogs) else read_eval_logs(data, format=format)
    if in_memory:
        check_cost("rows", len(logs.scores), work=f"pairing {len(logs.scores):,} rows of "
                   "per-item scores", bytes_per_unit=0.0, seconds_per_unit=ITEM_SECONDS_PER_ROW,
                   advice=advice)
    x, models, tasks, examples, metric_name = _matrix(logs, metric, notes)
    x, models, tasks, examples = _drop_empty(x, models, tasks, examples, notes)
    answered = x[~np.isnan(x)]
    if np.ptp(answered) == 0:
        raise DegenerateDataError(
            f"every answered score is {answered[0]:g} (e.g. every model right on every item): "
            "no item tells the models apart and there is nothing to diagnose.")
    if answered.min() < 0 or answered.max() > 1:
        raise InvalidInputError(f"scores must be in [0, 1] (right = 1), got {answered.min():g} "
                                f"to {answered.max():g}: rescale them.")
    m, n = x.shape
    check_cost("n_resamples (--n-resamples)", n_resamples, work=f"{n:,} items",
               bytes_per_unit=16.0 * n, seconds_per_unit=5e-9 * n)
    rng = np.random.default_rng(random_state)
    stats = item_statistics(x)
    w = ~np.isnan(x)
    model_items = w.sum(axis=1)
    model_mean = np.where(w, x, 0.0).sum(axis=1) / model_items
    if (model_items < n).any():
        notes.append(f"{int((~w).sum())} of {m * n} (model, item) cells are missing: mean "
                     "scores are over different items; the item response abilities are not.")
    fit = _irt(x, irt, prior_sd, alpha, notes)
    key = fit["ability"] if fit is not None else model_mean
    order = np.argsort(-key, kind="stable")
    k = min(top_k, m)
    if k < top_k:
        notes.append(f"top_k = {top_k} is more than the {m} models: all {m} are the top.")
    agree, _ = top_k_agree(x, order[:k])
    benchmarks = _benchmarks(x, tasks, model_mean, models, n_resamples, n_splits, rng)
    return ItemDiagnostics(
        metric=metric_name, models=models, tasks=tasks, examples=examples,
        n_models=stats["n_models"], difficulty=stats["difficulty"],
        discrimination=stats["discrimination"], none_right=stats["none_right"],
        all_right=stats["all_right"], top_agree=agree, top_k=k,
        top_models=tuple(models[j] for j in order[:k]),
        ranked_by="ability" if fit is not None else "mean score", model_mean=model_mean,
        model_items=model_items, benchmarks=tuple(benchmarks), irt=fit,
        n_resamples=int(n_resamples), n_splits=int(n_splits), notes=tuple(notes))


def _unanswered(data, notes):
    """A long table's rows without a score (an empty cell) are items the model did not
    answer: left out, with a note naming the models and items left with no score at all.
    Other inputs are returned as they are (the reader refuses what it cannot read)."""
    if isinstance(data, (str, Path)) and Path(data).suffix.lower() in TABLE_SUFFIXES \
            and Path(data).is_file():
        df = read_table(Path(data))
    elif isinstance(data, pd.DataFrame):
        df = data
    else:
        return data
    df = df.rename(columns={c: str(c).strip().lower() for c in df.columns})
    if not is_item_table(df.columns):
        return data
    blank = df["score"].isna().to_numpy()
    if not blank.any():
        return df
    item = item_column(df.columns)
    keys = df[["task", item] if "task" in df.columns else [item]].astype(str).agg("/".join,
                                                                               axis=1)
    kept = df.loc[~blank]
    gone_models = sorted(set(df["model"].astype(str)) - set(kept["model"].astype(str)))
    gone_items = sorted(set(keys) - set(keys[~blank]))
    notes.append(f"{int(blank.sum())} row(s) without a score read as items not answered.")
    if gone_models:
        notes.append(f"{len(gone_models)} model(s) with no scored item left out: "
                     f"{', '.join(gone_models[:5])}" + (" ..." if len(gone_models) > 5 else "."))
    if gone_items:
        notes.append(f"{len(gone_items)} item(s) no model answered left out, e.g. "
                     f"{gone_items[0]}.")
    if kept.empty:
        raise TooFewError("no row of the table has a score: nothing to diagnose.")
    return kept.reset_index(drop=True)


def _matrix(logs: EvalLogs, metric, notes):
    """The model x item matrix (NaN where a model has no score), epochs averaged."""
    df = logs.scores
    keep = np.zeros(len(df), dtype=bool)
    chosen = {}
    for task in logs.tasks:
        in_task = (df["task"] == task).to_numpy()
        want = metric if metric is not None else logs.default_metric.get(task)
        names = pd.unique(df.loc[in_task, "metric"].astype(str))
        if want is None or want not in names:
            base = [s for s in names if str(s).split(",")[0] == want] if want else []
            if len(base) != 1:
                raise InvalidInputError(f"task {task!r} has no metric {want!r}; its metrics "
                                        f"are {', '.join(map(str, names))}: choose one "
                                        "(metric=, --metric).")
            want = base[0]
        chosen[task] = want
        keep |= in_task & (df["metric"].astype(str) == want).to_numpy()
    for name in set(chosen.values()):
        if metric_direction(str(name).split(",")[0]) is False:
            raise InvalidInputError(f"metric {name!r} is lower-is-better: item diagnostics "
                                    "read scores where higher is better (right = 1); choose "
                                    "another metric (--metric).")
    rows = df.loc[keep]
    mean = rows.groupby(["task", "example", "model"], observed=True, sort=False)["score"].mean()
    frame = mean.reset_index()
    items = pd.MultiIndex.from_frame(frame[["task", "example"]].astype(str))
    item_codes, item_index = pd.factorize(items)
    models = tuple(str(m) for m in logs.models)
    model_codes = pd.Categorical(frame["model"].astype(str), categories=list(models)).codes
    x = np.full((len(models), len(item_index)), np.nan)
    x[model_codes, item_codes] = frame["score"].to_numpy(dtype=float)
    tasks = np.array([t for t, _ in item_index], dtype=object)
    examples = np.array([e for _, e in item_index], dtype=object)
    names = sorted(set(map(str, chosen.values())))
    return x, models, tasks, examples, names[0] if len(names) == 1 else ", ".join(names)


def _drop_empty(x, models, tasks, examples, notes):
    """Leave out items no model answered and models that answered no item (with a note)."""
    w = ~np.isnan(x)
    empty_items, empty_models = ~w.any(axis=0), ~w.any(axis=1)
    if empty_models.any():
        gone = [models[i] for i in np.flatnonzero(empty_models)]
        notes.append(f"{len(gone)} model(s) with no scored item left out: {', '.join(gone)}.")
    if empty_items.any():
        notes.append(f"{int(empty_items.sum())} item(s) no model answered left out, e.g. "
                     f"{tasks[empty_items][0]}/{examples[empty_items][0]}.")
    x = x[~empty_models][:, ~empty_items]
    models = tuple(m for m, e in zip(models, empty_models) if not e)
    if x.shape[0] < 2 or x.shape[1] < 2:
        raise TooFewError(f"item diagnostics need at least 2 models and 2 items with scores, "
                          f"got {x.shape[0]} model(s) and {x.shape[1]} item(s).")
    return x, models, tasks[~empty_items], examples[~empty_items]


def _irt(x, irt, prior_sd, alpha, notes):
    binary = bool(np.isin(x[~np.isnan(x)], (0.0, 1.0)).all())
    if irt == "none":
        return None
    if irt == "auto":
        if not binary:
            notes.append("scores are graded (not all 0/1): no item response model was fitted "
                         "(the Rasch and 2PL models are for right/wrong scores).")
            return None
        irt = "rasch"
    m, n = x.shape
    cells = int((~np.isnan(x)).sum())
    # measured: 14 ms per evaluation of 155,000 answered cells (100 models x 5,000 items,
    # 31% filled), ~200 evaluations, on a loaded machine; ~12 arrays of models x items for
    # the information; the estimate takes the faster end, 2 us per answered cell
    check_cost("the item response model (--irt)", 1, work=f"{m} models x {n:,} items",
               bytes_per_unit=96.0 * m * n + 80.0 * cells + 8.0 * m * m,
               seconds_per_unit=2e-6 * cells)
    fit = fit_irt(x, model=irt, prior_sd=prior_sd, alpha=alpha)
    return {"model": irt, "prior_sd": prior_sd, "confidence_level": 1 - alpha,
            "ability": fit["ability"], "se": fit["se"], "low": fit["low"], "high": fit["high"],
            "item_difficulty": fit["difficulty"], "item_discrimination": fit["discrimination"],
            "converged": fit["converged"], "loglik": fit["loglik"]}


def _benchmarks(x, tasks, model_mean, models, n_resamples, n_splits, rng) -> list[dict]:
    """Signal-to-noise and decision accuracy of each task and of all tasks together."""
    names = list(pd.unique(tasks))
    groups = [(None, np.ones(len(tasks), dtype=bool))]
    if len(names) > 1:
        groups += [(t, tasks == t) for t in names]
    out = []
    for task, cols in groups:
        sub = x[:, cols]
        w = ~np.isnan(sub)
        count = w.sum(axis=1)
        ok = count >= 2                               # models with 2 items or more here
        row = {"task": task, "n_models": int(ok.sum()), "n_items": int(cols.sum()),
               "signal": None, "noise": None, "snr": None, "noise_model": None,
               "decision_accuracy_split_half": None, "decision_accuracy_vs_all": None}
        if ok.sum() >= 2:
            means = np.where(w, sub, 0.0).sum(axis=1)[ok] / count[ok]
            best = int(np.flatnonzero(ok)[np.argmax(means)])
            y = sub[best][w[best]]
            boot = y[rng.integers(0, y.size, (n_resamples, y.size))].mean(axis=1)
            signal = (means.max() - means.min()) / means.mean()
            with np.errstate(divide="ignore", invalid="ignore"):
                noise = boot.std() / boot.mean()
            row.update(signal=float(signal), noise=float(noise),
                       snr=float(signal_to_noise_ratio(means, boot)), noise_model=models[best],
                       decision_accuracy_split_half=_split_half(sub[ok], n_splits, rng))
            if task is not None:
                row["decision_accuracy_vs_all"] = float(decision_accuracy(means, model_mean[ok]))
        out.append(row)
    return out


def _split_half(sub, n_splits, rng) -> float | None:
    """Mean decision accuracy of one random half of the items against the other half."""
    n = sub.shape[1]
    if n < 4:
        return None
    halves = np.argsort(rng.random((n_splits, n)), axis=1) < n // 2      # (R, n)
    w = ~np.isnan(sub)
    y = np.where(w, sub, 0.0)
    h = halves.astype(float)
    # small products: a multi-threaded BLAS on a busy machine makes them 20x slower
    with threadpool_limits(limits=1), np.errstate(divide="ignore", invalid="ignore"):
        first = (h @ y.T) / (h @ w.T)                                   # (R, m)
        second = ((1 - h) @ y.T) / ((1 - h) @ w.T)
    return float(np.mean(decision_accuracy(first, second)))
