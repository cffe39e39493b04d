"""Runs x tasks: interval estimates of Agarwal et al. (2021) from a tidy table.

A table with several runs (seeds) of each model on each task is read, put on one scale per
task (the rule is stated in the result), reshaped to rliable's (n_runs, n_tasks) arrays and
handed to the kernels of :mod:`outperform.stats`.

Why a function of its own and not a branch of ``compare()``: ``compare()`` answers "is A
better than B?" with tests and decisions, and already reads a ``run`` column as replicates of
Q2/Q3 designs; aggregates with bootstrap intervals answer "how well does each model do, and how
sure are we?", a different result object, and routing by the mere presence of ``run`` would
change the answer for tables that work today.
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping
import numpy as np
import pandas as pd

from .._deprecation import renamed
from .._validation import InvalidInputError, OutperformWarning, check_random_state
from ..data import read_results, read_table
from ..data._columns import FOLD, MODEL, RUN, STEP, TASK, canonical_columns
from ..results import RunsComparison
from ..results._runs import IntervalEstimate, _percentile_interval
from ..stats import aggregate_runs, performance_profile
from ..stats._improvement import probabilities_of_improvement
from ..stats._runs import STATISTICS, _check_options, performance_profiles, runs_cost
from ._pair_choice import choose_pairs
from ._runs_summary import _pair_summary


def _last_step(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Each learning curve's score at the last step that every curve reached.

    Curves that end at different steps are compared at the last step they all have (a
    model trained longer would otherwise be compared at its later step); a note says so.

    Raises
    ------
    InvalidInputError
        No task, model or run column, or no step common to all curves.
    """
    frame = canonical_columns(frame)
    if STEP not in frame.columns:
        return frame, []
    keys = [c for c in (TASK, MODEL, RUN, FOLD) if c in frame.columns]
    if not {TASK, MODEL, RUN} <= set(keys):
        raise InvalidInputError("a table with a 'step' column needs columns named task, model "
                                "and run, to know which steps belong to one learning curve.")
    frame = frame.reset_index(drop=True)
    curves = frame.groupby(keys, observed=True)
    ends = curves[STEP].max()
    if ends.nunique() == 1:
        last = frame.loc[curves[STEP].idxmax()].drop(columns=STEP)
        return last, ["the aggregates use each run's last step of its learning curve"]
    n_curves = curves.ngroups
    per_step = frame.drop_duplicates(keys + [STEP]).groupby(STEP)[STEP].size()
    common = per_step.index[per_step.to_numpy() == n_curves]
    if common.empty:
        raise InvalidInputError(
            f"the learning curves end at different steps ({ends.min()} to {ends.max()}) and no "
            "step is shared by all of them, so there is no step at which to compare every "
            "run; evaluate all runs at common steps, or keep one row per run (drop 'step').")
    step = common.max()
    short = ends[ends == ends.min()].index[0]
    frame = frame[frame[STEP] == step].drop(columns=STEP)
    return frame, [f"the learning curves end at different steps ({ends.min()} to "
                   f"{ends.max()}; e.g. {dict(zip(keys, map(str, short)))} ends at "
                   f"{ends.min()}): every run is compared at step {step}, the last step all "
                   "of them reached, not at its own last step"]


def _read_runs(data, metric, higher_is_better, *, no_run: str):
    """A table of runs read once for the comparisons of runs: ``(table, frame, metric, notes)``.

    Learning curves cut at their last common step, the metric chosen (the only one, or
    InvalidInputError), each run's score averaged over folds; InvalidInputError ``no_run``
    without a ``run`` column. ``notes`` say what was assumed or done to the scores.
    """
    frame = data if isinstance(data, pd.DataFrame) else read_table(data)
    frame, notes = _last_step(frame)
    table = read_results(frame, metric=metric, higher_is_better=higher_is_better, paired=False)
    frame = table.frame
    if RUN not in frame.columns:
        raise InvalidInputError(no_run)
    if metric is None:
        if len(table.metrics) != 1:
            raise InvalidInputError(f"several metrics {list(table.metrics)}: choose one with "
                                    "metric= (--metric).")
        metric = next(iter(table.metrics))
    notes.extend(w for w in table.warnings if repr(metric) in w)   # units of the metric
    if metric in table.direction_assumed:
        notes.append(f"{metric!r} is not a known metric name: assumed higher is better "
                     "(pass higher_is_better / --lower-is-better to state it)")
    if FOLD in frame.columns:
        frame = frame.groupby([TASK, MODEL, RUN], observed=True, as_index=False)[metric].mean()
        notes.append("each run's score is its mean over folds")
    return table, frame, metric, notes


def _reference(normalize) -> pd.DataFrame:
    """Reference scores as a frame indexed by task with columns zero, one."""
    if isinstance(normalize, Mapping):
        ref = pd.DataFrame.from_dict({str(k): tuple(v) for k, v in normalize.items()},
                                     orient="index", columns=["zero", "one"])
    else:
        ref = normalize if isinstance(normalize, pd.DataFrame) else read_table(normalize)
        missing = {"task", "zero", "one"} - set(ref.columns)
        if missing:
            raise InvalidInputError(
                f"the reference scores need columns task, zero, one (the scores mapped to 0 and "
                f"1, e.g. a random policy and a human); missing {sorted(missing)}.")
        ref = ref.assign(task=ref["task"].astype(str)).set_index("task")[["zero", "one"]]
    return ref.astype(float)


def _normalise(frame, metric, higher_is_better, normalize):
    x, task = frame[metric].to_numpy(float), frame[TASK].astype(str)
    if normalize is None:
        if not higher_is_better:
            raise InvalidInputError(
                f"{metric!r} is lower-is-better, and IQM, optimality gap and P(X > Y) read "
                "higher as better: pass normalize='min-max' (maps each task's best score to 1) "
                "or reference scores (zero, one) per task.")
        return x, "none: raw scores (each task on its own scale)"
    if isinstance(normalize, str) and normalize == "min-max":
        lo = frame.groupby(TASK, observed=True)[metric].transform("min").to_numpy(float)
        hi = frame.groupby(TASK, observed=True)[metric].transform("max").to_numpy(float)
        flat = sorted(set(task[lo == hi]))
        if flat:
            raise InvalidInputError(f"every run of every model has the same score on task(s) "
                                    f"{flat[:5]}; min-max normalisation is undefined there: "
                                    "drop them or give reference scores.")
        best, worst = (hi, lo) if higher_is_better else (lo, hi)
        return ((x - worst) / (best - worst),
                "min-max per task over all models and runs: (score - worst) / (best - worst), "
                "1 = best run on the task, 0 = worst")
    ref = _reference(normalize)
    missing = sorted(set(task) - set(ref.index))
    if missing:
        raise InvalidInputError(f"no reference scores for task(s) {missing[:5]}.")
    same = sorted(ref.index[ref["zero"] == ref["one"]])
    if same:
        raise InvalidInputError(f"reference scores zero and one are equal for task(s) {same[:5]}.")
    zero, one = ref.loc[task, "zero"].to_numpy(), ref.loc[task, "one"].to_numpy()
    return ((x - zero) / (one - zero),
            "reference scores per task: (score - zero) / (one - zero), 0 = reference 'zero', "
            "1 = reference 'one'")


def _codes(values: pd.Series, names) -> np.ndarray:
    """Each row's position in ``names`` (task or model names, text)."""
    return pd.Categorical(values, categories=list(names)).codes.astype(np.intp)


def _arrays(frame, tasks, models) -> tuple[dict[str, np.ndarray], list[str]]:
    """model -> (n_runs, n_tasks) array (row i: the task's i-th smallest run id), refusing models
    whose run count varies by task; and the tasks on which the models' run ids differ.

    One sort of the rows by (model, task, run), no loop over rows or groups."""
    n_tasks = len(tasks)
    model, task = _codes(frame[MODEL], models), _codes(frame[TASK], tasks)
    run = pd.factorize(frame[RUN], sort=True)[0]
    counts = np.bincount(model * n_tasks + task, minlength=len(models) * n_tasks
                         ).reshape(len(models), n_tasks)
    for i in np.flatnonzero(counts.min(axis=1) != counts.max(axis=1)):
        few = int(np.argmin(counts[i]))
        raise InvalidInputError(
            f"model {models[i]!r} has {counts[i].min()} to {counts[i].max()} runs per task; the "
            "stratified bootstrap needs the same number of runs of a model on every task "
            f"(e.g. {tasks[few]!r} has {counts[i, few]}).")
    order = np.lexsort((run, task, model))
    scores, run = frame["_score"].to_numpy(float)[order], run[order]
    out, ids, start = {}, {}, 0
    for i, name in enumerate(models):
        n_runs = int(counts[i, 0])
        stop = start + n_runs * n_tasks
        out[name] = np.ascontiguousarray(scores[start:stop].reshape(n_tasks, n_runs).T)
        ids[name] = run[start:stop].reshape(n_tasks, n_runs)
        start = stop
    if len({a.shape[0] for a in out.values()}) > 1:      # no duplicate rows: sets differ
        return out, [str(t) for t in tasks]
    first = ids[models[0]]
    differ = np.zeros(n_tasks, dtype=bool)
    for name in models[1:]:
        differ |= (ids[name] != first).any(axis=1)
    return out, [str(tasks[t]) for t in np.flatnonzero(differ)]


def _design(unshared: list[str], paired) -> tuple[bool, str]:
    """Whether to resample the runs as paired, and the sentence the report prints, from the
    tasks on which the models' run ids differ (:func:`_arrays`)."""
    if paired and unshared:
        raise InvalidInputError(
            f"paired=True, but the models' run ids differ on task(s) {unshared[:5]}: a paired "
            "design gives run i of every model the same seed/split.")
    if paired is None:
        paired = not unshared
    if paired:
        return True, ("paired design: on every task the models share their run ids (seeds or "
                      "data splits, as the runner's identical splits give), so run i of every "
                      "model is resampled together; the differences and P(X > Y) use the "
                      "pairing, and what a run's seed/split does to all models cancels in a "
                      "difference")
    why = (f"the models' run ids differ on task(s) {unshared[:5]}" if unshared else
           "paired=False was asked")
    return False, (f"unpaired design ({why}): each model's runs are resampled on their own, so "
                   "a difference carries the seed-to-seed variation of both models with nothing "
                   "shared to cancel; its interval is wider (less power) than with runs that "
                   "share seeds/splits across models")


@renamed(confidence_level="alpha")
def compare_runs(data, *, metric: str | None = None, higher_is_better: bool | None = None,
                 normalize=None, control: str | None = None, statistics=STATISTICS,
                 gamma: float = 1.0, n_resamples: int = 2000, alpha: float = 0.05,
                 task_bootstrap: bool = False, paired: bool | None = None, taus=None,
                 random_state=0, progress: bool = False, pairs: str | None = None
                 ) -> RunsComparison:
    """Mean, median, IQM and optimality gap with bootstrap CIs, P(X > Y) and profiles.

    Agarwal et al. (2021), NeurIPS; the same estimators as rliable.

    Parameters
    ----------
    data : DataFrame, str or Path
        Long table (or a file :func:`outperform.data.read_table` reads): ``task``, ``model``,
        ``run`` (seed), a metric, optional ``fold`` (averaged within each run) and optional
        ``step`` (a learning curve; the last step every run reached is used).
    metric, higher_is_better
        As in :func:`outperform.data.read_results`.
    normalize : None, "min-max", mapping or DataFrame/path
        None: raw scores (higher-is-better metrics only). ``"min-max"``: per task over all
        models and runs, best -> 1 and worst -> 0. Reference scores: ``{task: (zero, one)}`` or a
        table with columns ``task, zero, one`` (e.g. random and human scores), mapped to 0 and
        1; a lower-is-better metric gets zero = the worse reference, so higher is better after.
    control : str, optional
        Compare every other model with it (P(model > control) and the differences).
    pairs : {"all", "neighbours", "control"}, optional
        Which pairs get P(X > Y) and the differences in full (the rule of
        :func:`outperform.compare._pair_choice.choose_pairs`): by default each model against
        ``control`` when one is named, every pair up to 6 models, else the neighbours in the
        ranking by IQM (X the better). Whatever is shown, ``pair_summary`` counts, over all
        k(k − 1)/2 pairs, those whose difference interval excludes 0. P(X > Y) costs about
        n_resamples × tasks × runs² per pair: 1,225 pairs of 50 models take a minute.
    statistics, gamma, n_resamples, alpha, task_bootstrap, random_state, progress
        As in :func:`outperform.stats.aggregate_runs`; one random stream serves all models.
    paired : bool, optional
        None (default): paired when, on every task, every model has the same run ids (read as
        shared seeds/splits); then run i of every model is resampled together for the
        differences and P(X > Y). False: resample each model's runs on their own (for run ids
        that are mere counters). True: require shared run ids. The report states which.
    taus : array_like, optional
        Thresholds of the performance profiles; by default 101 points spanning all scores.

    Returns
    -------
    RunsComparison

    Raises
    ------
    InvalidInputError
        No ``run`` column, a metric to choose, a model with varying runs per task, an unknown
        control, lower-is-better scores without a normalisation, missing reference scores,
        learning curves with no step in common, ``task_bootstrap`` with one task, or more
        resamples than fit in memory or in an hour (all resampled quantities are kept; the
        message names the largest ``n_resamples`` that fits).

    Warns
    -----
    UserWarning
        One run per task (tasks fixed): the intervals are NaN and a note says why.

    Notes
    -----
    Learning curves (a ``step`` column) that end at different steps are compared at the
    last step all of them reached, and a note names it.
    """
    table, frame, metric, notes = _read_runs(
        data, metric, higher_is_better,
        no_run="compare_runs needs a 'run' column (one row per seed of each model on each task).")
    # Canonical order: tasks and the models' draws in sorted order, so that the rows' order
    # in the file changes nothing (the report lists the models in the table's order).
    tasks, models = tuple(sorted(table.tasks)), table.models
    if control is not None and control not in models:
        raise InvalidInputError(f"unknown control {control!r}; the models are {list(models)}.")
    values, rule = _normalise(frame, metric, table.metrics[metric], normalize)
    frame = frame.assign(_score=values)
    canonical = sorted(models)
    arrays, unshared = _arrays(frame, tasks, canonical)
    paired, design = _design(unshared, paired)
    notes.append(design)
    # the pairs' number (not yet their order, which needs the aggregates): the one rule
    n_pairs = len(choose_pairs(list(models), control=control, pairs=pairs)[0])
    _cost(arrays, n_pairs, statistics, n_resamples, taus, paired, task_bootstrap)
    rng = check_random_state(random_state)
    options = dict(n_resamples=n_resamples, alpha=alpha,
                   task_bootstrap=task_bootstrap, random_state=rng, progress=progress)
    single = [m for m in models if arrays[m].shape[0] == 1]
    with warnings.catch_warnings():
        if single and not task_bootstrap:
            notes.append(_one_run(single))
            warnings.warn(notes[-1], OutperformWarning, stacklevel=2)
            warnings.filterwarnings("ignore", message="one run per task", category=UserWarning)
        aggregates = aggregate_runs(arrays, statistics=statistics, gamma=gamma, paired=paired,
                                    **options)
        chosen, pair_rule = choose_pairs(_ranking(aggregates, canonical), control=control,
                                         pairs=pairs, order=models)
        # every pair on the same draws: a pair's numbers do not depend on which others are shown
        improvements = probabilities_of_improvement(arrays, chosen, paired=paired, **options)
        differences = {(x, y): {s: _difference(aggregates[x][s], aggregates[y][s])
                                for s in statistics} for x, y in chosen}
        summary = _pair_summary(aggregates, models, pair_rule, len(chosen))
        everything = np.concatenate([a.ravel() for a in arrays.values()])
        taus = np.linspace(everything.min(), everything.max(), 101) if taus is None else taus
        if len({a.shape for a in arrays.values()}) == 1:     # one pass, shared draws of runs
            profiles = dict(zip(arrays, performance_profiles(np.stack(list(arrays.values())),
                                                             taus, **options)))
        else:
            profiles = {m: performance_profile(a, taus, **options) for m, a in arrays.items()}
    return RunsComparison(tuple(models), tasks, {m: arrays[m].shape[0] for m in models},
                          metric, rule, {m: aggregates[m] for m in models}, improvements,
                          {m: profiles[m] for m in models}, tuple(notes), differences, paired,
                          summary)


def _ranking(aggregates, models) -> list[str]:
    """Models best first by IQM (the first statistic when there is no IQM; a gap is a loss)."""
    statistic = "iqm" if "iqm" in next(iter(aggregates.values())) else next(iter(
        next(iter(aggregates.values()))))
    sign = 1.0 if statistic == "optimality_gap" else -1.0
    key = np.array([sign * aggregates[m][statistic].estimate for m in models])
    return [models[i] for i in np.argsort(key, kind="stable")]


def _one_run(models) -> str:
    return (f"one run per task of {', '.join(map(repr, models[:5]))}: the stratified bootstrap "
            "redraws that one run every time, so its resamples have no spread; the intervals "
            "involving it are NaN rather than a zero width that would claim certainty. Add "
            "runs (seeds), or resample tasks (task_bootstrap=True, --tasks-random).")


def _cost(arrays, n_pairs: int, statistics, n_resamples, taus, paired: bool,
          task_bootstrap: bool) -> None:
    """Every resampled quantity is kept: the aggregates, P(X > Y), the differences and the
    profiles; refuse before the first resample what will not fit (check_cost). The rates are
    the CPU seconds measured on 50 models x 100 tasks x 20 runs (one core of an AMD EPYC,
    2026-11-27): the aggregates 5e-9 s a score, the profiles 2.5e-11 s a score and threshold,
    P(X > Y) 3e-11 s a task and pair of runs when paired (one shared product), 1.5e-10 s
    unpaired or with the tasks resampled."""
    _check_options(n_resamples, 0.5)
    n_taus = 101 if taus is None else np.size(taus)
    per = (len(arrays) * (24 * len(statistics) + 16 * n_taus)
           + n_pairs * (16 + 8 * len(statistics)))
    cells = sum(a.size for a in arrays.values())
    pair_rate = 3e-11 if paired and not task_bootstrap else 1.5e-10
    seconds = 5e-9 * cells + 2.5e-11 * cells * n_taus + pair_rate * n_pairs * max(
        a.size * a.shape[0] for a in arrays.values())
    runs_cost(n_resamples, per, seconds,
              f"{len(arrays)} models, {n_pairs} pairs and {n_taus} profile thresholds")


def _difference(x: IntervalEstimate, y: IntervalEstimate) -> IntervalEstimate:
    """x - y with the percentile interval of the resampled differences (resample k of x and
    of y: drawn together when paired, independently otherwise; see aggregate_runs)."""
    dist = x.distribution - y.distribution
    low, high = _percentile_interval(dist, x.confidence_level)
    if np.isnan(x.low) or np.isnan(y.low):    # a side without spread (one run): no interval
        low = high = np.nan
    return IntervalEstimate(f"{x.statistic} difference", x.estimate - y.estimate, float(low),
                            float(high), x.confidence_level, x.task_bootstrap, dist)
