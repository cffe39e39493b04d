"""Generic simulation studies: type I error (calibration) and power of any test.

A study repeats "simulate data, run the test" many times and reports the share of
rejections with its Monte Carlo standard error sqrt(r (1 - r) / M) (Demšar 2006, §4.1.2
counts rejections the same way; Corani & Benavoli 2015, §4, report them as Type I error and
power).

Reproducibility: repetition i always draws from the i-th child of
``numpy.random.SeedSequence(random_state)``, so a study gives the same table whatever
``n_jobs``, the backend or the chunking; and every point of a power grid reuses the same
children (common random numbers, so the curves are smooth and differences between effects or
between tests are estimated with less noise).

Parallel execution goes through joblib: ``n_jobs`` processes with the default (loky)
backend, threads with ``backend="threading"``, or a Dask cluster with ``backend="dask"``
(the current ``dask.distributed`` Client) or ``backend=client``. joblib's Dask backend sizes
itself from the cluster's threads, so ``n_jobs=-1`` uses all of them.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from .._parallel import joblib_backend, progress_bar
from .._validation import InvalidInputError, OutperformError, check_choice, check_probability
from ..results import BayesianResult, FrequentistResult
from ._common import check_float_grid, check_int, proportion_se

__all__ = ["calibration", "power", "seed_sequence", "rejection_outcome"]

# Each grid point is cut into this many chunks at most: enough for a smooth progress bar and
# to keep every worker busy, few enough that the per-task overhead stays small.
_CHUNKS_PER_POINT = 8


def seed_sequence(random_state) -> np.random.SeedSequence:
    """The SeedSequence behind ``random_state`` (None, int, SeedSequence or Generator).

    Examples
    --------
    >>> seed_sequence(3).entropy
    3
    """
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, np.random.Generator):
        return np.random.SeedSequence(random_state.integers(0, 2**63, size=4).tolist())
    if random_state is None or (isinstance(random_state, numbers.Integral)
                                and not isinstance(random_state, bool) and random_state >= 0):
        return np.random.SeedSequence(random_state)
    raise InvalidInputError(
        f"random_state must be None, a non-negative int, a SeedSequence or a numpy Generator, "
        f"got {random_state!r}."
    )


def rejection_outcome(result, alpha: float) -> tuple[float, bool]:
    """The p-value and the rejection decision of one test result at level ``alpha``.

    Parameters
    ----------
    result : FrequentistResult, BayesianResult, float or bool
        A :class:`FrequentistResult` rejects when its p-value is <= alpha. A
        :class:`BayesianResult` rejects when P(A better) > 1 - alpha (the rule of Corani &
        Benavoli 2015, §3.1, one-sided for A); its "p-value" is 1 - P(A better). A number is
        taken as a p-value; a bool as the decision itself (p-value NaN).
    alpha : float

    Returns
    -------
    (float, bool)

    Raises
    ------
    InvalidInputError
        Any other kind of result, or a p-value outside [0, 1].

    Examples
    --------
    >>> rejection_outcome(0.03, 0.05)
    (0.03, True)
    """
    if isinstance(result, (bool, np.bool_)):
        return math.nan, bool(result)
    if isinstance(result, FrequentistResult):
        p = float(result.pvalue)
    elif isinstance(result, BayesianResult):
        p_better = result.p_right if result.a_better_side == "right" else result.p_left
        return 1.0 - float(p_better), bool(p_better > 1 - alpha)
    elif isinstance(result, numbers.Real):
        p = float(result)
    else:
        raise InvalidInputError(
            "a test must return a FrequentistResult, a BayesianResult, a p-value or a bool "
            f"(reject or not), got {type(result).__name__}."
        )
    if not 0 <= p <= 1:
        raise InvalidInputError(f"a test returned the p-value {p!r}, outside [0, 1].")
    return p, bool(p <= alpha)


def _tests(test) -> dict[str, Callable]:
    if callable(test):
        return {getattr(test, "__name__", "test"): test}
    if isinstance(test, Mapping) and test and all(callable(f) for f in test.values()):
        return {str(name): f for name, f in test.items()}
    raise InvalidInputError(
        "test must be a function test(*data) or a non-empty dict {name: function} to run "
        "several tests on the same simulated data."
    )


def _call(fn, data):
    if isinstance(data, tuple):
        return fn(*data)
    if isinstance(data, Mapping):
        return fn(**data)
    return fn(data)


def _run_chunk(tests, generator, effect, seeds, alpha, on_error):
    """p-values and rejections (len(tests), len(seeds)) for one block of repetitions."""
    pvalues = np.full((len(tests), len(seeds)), np.nan)
    reject = np.zeros((len(tests), len(seeds)), dtype=bool)
    failed = np.zeros((len(tests), len(seeds)), dtype=bool)
    for j, seed in enumerate(seeds):
        rng = np.random.default_rng(seed)
        data = generator(rng) if effect is None else generator(effect, rng)
        for i, fn in enumerate(tests.values()):
            try:
                pvalues[i, j], reject[i, j] = rejection_outcome(_call(fn, data), alpha)
            except OutperformError:
                if on_error == "raise":
                    raise
                failed[i, j] = True
    return pvalues, reject, failed


def parallel_map(fn: Callable, tasks: Iterable[tuple], weights: Iterable[int], *, n_jobs=1,
                 backend=None, progress=False, description="simulating") -> list:
    """``[fn(*task) for task in tasks]``, in order, through joblib when asked.

    ``weights`` (e.g. repetitions per task) drive the progress bar. With ``n_jobs=1`` and no
    backend the tasks run in this process without joblib.
    """
    tasks, weights = list(tasks), list(weights)
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise InvalidInputError(
            f"n_jobs must be a non-zero integer (-1: all cores), got {n_jobs!r}.")
    out = []
    with progress_bar(sum(weights), progress, description) as advance:
        if n_jobs == 1 and backend is None:
            for task, w in zip(tasks, weights):
                out.append(fn(*task))
                advance(w)
            return out
        try:
            from joblib import Parallel, delayed
        except ImportError:
            raise InvalidInputError(
                "parallel simulation needs joblib: pip install joblib (or use n_jobs=1)."
            ) from None
        context = joblib_backend(backend)
        with context:
            results = Parallel(n_jobs=n_jobs, return_as="generator")(
                delayed(fn)(*task) for task in tasks)
            for result, w in zip(results, weights):
                out.append(result)
                advance(w)
    return out


def _study(test, generator, effects, *, n_repetitions, alpha, random_state, n_jobs, backend,
           progress, on_error) -> pd.DataFrame:
    tests = _tests(test)
    if not callable(generator):
        raise InvalidInputError("the data generator must be a function of a numpy Generator.")
    m = check_int(n_repetitions, "n_repetitions")
    alpha = check_probability(alpha, "alpha")
    check_choice(on_error, "on_error", ("raise", "skip"))
    seeds = seed_sequence(random_state).spawn(m)
    size = math.ceil(m / _CHUNKS_PER_POINT)
    blocks = [(start, min(start + size, m)) for start in range(0, m, size)]
    tasks = [(tests, generator, effect, seeds[lo:hi], alpha, on_error)
             for effect in effects for lo, hi in blocks]
    chunks = parallel_map(_run_chunk, tasks, [hi - lo for _ in effects for lo, hi in blocks],
                          n_jobs=n_jobs, backend=backend, progress=progress)
    rows = []
    for e, effect in enumerate(effects):
        parts = chunks[e * len(blocks):(e + 1) * len(blocks)]
        pvalues, reject, failed = (np.concatenate([p[k] for p in parts], axis=1)
                                   for k in range(3))
        for i, name in enumerate(tests):
            ok = ~failed[i]
            n_ok = int(ok.sum())
            rate = float(reject[i, ok].mean()) if n_ok else math.nan
            p_ok = pvalues[i, ok]
            rows.append({
                "test": name, "effect": effect, "n_repetitions": n_ok,
                "n_errors": int(failed[i].sum()), "alpha": alpha, "rejection_rate": rate,
                "mc_se": float(proportion_se(rate, n_ok)) if n_ok else math.nan,
                "mean_pvalue": float(np.mean(p_ok)) if n_ok and not np.isnan(p_ok).any()
                else math.nan,
            })
    return pd.DataFrame(rows)


def calibration(test, null_generator, *, n_repetitions: int = 1000, alpha: float = 0.05,
                random_state=0, n_jobs: int = 1, backend=None, progress: bool = False,
                on_error: str = "raise") -> pd.DataFrame:
    """Type I error of one or several tests on data simulated under the null hypothesis.

    Parameters
    ----------
    test : callable or dict of str -> callable
        ``test(*data)`` returning a :class:`FrequentistResult` (rejects when p <= alpha), a
        :class:`BayesianResult` (rejects when P(A better) > 1 - alpha), a p-value or a bool.
        A dict runs several tests on the same simulated data sets.
    null_generator : callable
        ``null_generator(rng)`` with ``rng`` a numpy Generator, returning the data: a tuple
        (passed as positional arguments), a dict (keyword arguments) or one object.
    n_repetitions : int
        M, simulated data sets per test.
    alpha : float
        Nominal level.
    random_state : None, int, SeedSequence or Generator
    n_jobs : int
        joblib workers (-1: all); 1 runs in this process.
    backend : None, "loky", "threading", "dask" or dask.distributed.Client
        joblib backend; see the module docstring.
    progress : bool
        Show a rich progress bar on stderr (on a terminal).
    on_error : {"raise", "skip"}
        What to do when a test raises an :class:`OutperformError` (e.g. degenerate data):
        stop, or leave that repetition out of the rate and count it in ``n_errors``.

    Returns
    -------
    pandas.DataFrame
        One row per test: ``test``, ``n_repetitions`` (used), ``n_errors``, ``alpha``,
        ``rejection_rate`` (the estimated type I error), ``mc_se`` (its Monte Carlo standard
        error), ``mean_pvalue``, ``calibrated`` (rejection rate not significantly above
        alpha: rate <= alpha + 2 sqrt(alpha (1 - alpha) / M)).

    Raises
    ------
    InvalidInputError
        Bad test or generator, M < 1, alpha outside (0, 1), unknown backend, or a test
        result that is neither a result object, a p-value nor a bool.

    Examples
    --------
    The paired t-test on normal differences with mean 0 rejects about 5% of the time:

    >>> from outperform.stats import paired_ttest
    >>> def null(rng):
    ...     return rng.normal(0, 1, 15), rng.normal(0, 1, 15)
    >>> table = calibration(paired_ttest, null, n_repetitions=400, random_state=0)
    >>> table[["test", "rejection_rate", "calibrated"]].round(3).to_dict("records")
    [{'test': 'paired_ttest', 'rejection_rate': 0.042, 'calibrated': True}]
    """
    table = _study(test, null_generator, [None], n_repetitions=n_repetitions, alpha=alpha,
                   random_state=random_state, n_jobs=n_jobs, backend=backend,
                   progress=progress, on_error=on_error).drop(columns="effect")
    bound = table["alpha"] + 2 * np.sqrt(table["alpha"] * (1 - table["alpha"])
                                         / table["n_repetitions"].clip(lower=1))
    table["calibrated"] = table["rejection_rate"] <= bound
    return table


def power(test, generator, effect_grid, *, n_repetitions: int = 1000, alpha: float = 0.05,
          random_state=0, n_jobs: int = 1, backend=None, progress: bool = False,
          on_error: str = "raise") -> pd.DataFrame:
    """Rejection rate (power; type I error at null effects) of tests over a grid of effects.

    Parameters
    ----------
    test : callable or dict of str -> callable
        As in :func:`calibration`.
    generator : callable
        ``generator(effect, rng)`` returning the data for one repetition at that effect.
    effect_grid : float or sequence of float
        The effects (e.g. true mean differences) to simulate.
    n_repetitions, alpha, random_state, n_jobs, backend, progress, on_error
        As in :func:`calibration`. All effects reuse the same per-repetition random streams.

    Returns
    -------
    pandas.DataFrame
        One row per (test, effect): ``test``, ``effect``, ``n_repetitions``, ``n_errors``,
        ``alpha``, ``rejection_rate``, ``mc_se``, ``mean_pvalue``.

    Raises
    ------
    InvalidInputError
        As :func:`calibration`, or an empty or non-numeric grid.

    Examples
    --------
    >>> from outperform.stats import paired_ttest
    >>> def shifted(effect, rng):
    ...     return rng.normal(effect, 1, 15), rng.normal(0, 1, 15)
    >>> table = power(paired_ttest, shifted, [0.0, 1.0], n_repetitions=200, random_state=0)
    >>> table["rejection_rate"].round(2).tolist()
    [0.05, 0.68]
    """
    effects = [float(e) for e in check_float_grid(effect_grid, "effect_grid")]
    return _study(test, generator, effects, n_repetitions=n_repetitions, alpha=alpha,
                  random_state=random_state, n_jobs=n_jobs, backend=backend, progress=progress,
                  on_error=on_error)
