"""The papers' simulation studies, one function each: a quick run by default, theirs with full=True.

Every study takes ``(*, full=False, random_state=0, n_jobs=1, backend=None, progress=False)``
and returns a tidy DataFrame; :func:`plot_figure` draws it. ``n_jobs`` and ``backend`` run it
in parallel as :func:`outperform.simulate.calibration` does (joblib processes or threads, or
a Dask cluster); the table does not depend on them. The quick sizes take seconds and already
show the papers' claims within Monte Carlo error; ``full=True`` uses the papers' sizes
(minutes).

=====================  ============================================  ===========================
name                   study                                         paper's size (full=True)
=====================  ============================================  ===========================
lacoste-fig3           AUC vs N, single Dirichlet, n = 1001          M = 10^5 per point
lacoste-fig4           AUC vs N, Table 5 mixture, n = 1001           M = 10^5 per point
lacoste-fig5           AUC vs n, Table 5 mixture, N = 21             M = 10^5 per point
lacoste-bimodal        AUC, bimodal context, n = 100001 (N = 14)     M = 10^5 per point
corani-fig2a           power vs fixed delta_acc, 1 and 10 runs       5000 per delta, 11 deltas
corani-fig2b           power vs Cauchy delta_bar, 1 and 10 runs      5000 per delta, 6 deltas
demsar-replicability   p, rejections, R(p), R(e) vs bias k           1000 samples per k
=====================  ============================================  ===========================

The papers do not list the values of N and n on the horizontal axes of Lacoste's Figures
3-5 (the figures are lost from the text); the grids below are our choice.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, check_choice
from ._auc import lacoste_auc
from ._contexts import bimodal_context, multiple_dirichlet_context, single_dirichlet_context
from ._corani import corani_power
from ._replicability import demsar_study
from ._study import seed_sequence

__all__ = [
    "FIGURES",
    "SIZES",
    "corani_fig2a",
    "corani_fig2b",
    "demsar_replicability",
    "lacoste_bimodal",
    "lacoste_fig3",
    "lacoste_fig4",
    "lacoste_fig5",
    "plot_figure",
    "run_figure",
]

_N_QUICK = (3, 5, 10, 20)
_N_FULL = (2, 3, 5, 7, 10, 14, 20, 30, 50)

#: Sizes of each study, quick (default) and the paper's (full=True). Tests and users may
#: edit this dict to run other sizes through the same functions.
SIZES = {
    "lacoste-fig3": {"quick": {"n_data_sets": _N_QUICK, "n_repetitions": 3000},
                     "full": {"n_data_sets": _N_FULL, "n_repetitions": 100_000}},
    "lacoste-fig4": {"quick": {"n_data_sets": _N_QUICK, "n_repetitions": 3000},
                     "full": {"n_data_sets": _N_FULL, "n_repetitions": 100_000}},
    "lacoste-fig5": {"quick": {"n_test": (11, 101, 1001, 10001), "n_repetitions": 3000},
                     "full": {"n_test": (11, 31, 101, 301, 1001, 3001, 10001, 30001, 100001),
                              "n_repetitions": 100_000}},
    "lacoste-bimodal": {"quick": {"n_data_sets": (14,), "n_repetitions": 20_000},
                        "full": {"n_data_sets": (5, 10, 14, 20, 30), "n_repetitions": 100_000}},
    "corani-fig2a": {"quick": {"deltas": (0.0, 0.02, 0.04, 0.06, 0.08, 0.1),
                               "n_repetitions": 300},
                     "full": {"deltas": tuple(np.round(np.arange(11) * 0.01, 2)),
                              "n_repetitions": 5000}},
    "corani-fig2b": {"quick": {"deltas": (0.0, 0.01, 0.03, 0.05), "n_repetitions": 300},
                     "full": {"deltas": tuple(np.round(np.arange(6) * 0.01, 2)),
                              "n_repetitions": 5000}},
    "demsar-replicability": {"quick": {"biases": (0, 10, 20, 40), "n_repetitions": 200},
                             "full": {"biases": tuple(range(0, 55, 5)),
                                      "n_repetitions": 1000}},
}


def _size(name: str, full: bool) -> dict:
    return SIZES[name]["full" if full else "quick"]


def lacoste_fig3(*, full: bool = False, random_state=0, n_jobs: int = 1, backend=None,
                 progress: bool = False) -> pd.DataFrame:
    """Lacoste et al. (2012) Figure 3: AUC of the three tests vs N, single Dirichlet context.

    Dirichlet(100, 110, 790), n = 1001; N in (3, 5, 10, 20), M = 3000 (quick) or N in
    (2, 3, 5, 7, 10, 14, 20, 30, 50), M = 10^5 (full). The paper: the Poisson-binomial test
    is at or above the sign test for every N, the Wilcoxon test close to it.

    Returns
    -------
    pandas.DataFrame
        As :func:`outperform.simulate._auc.lacoste_auc`.

    Examples
    --------
    >>> t = lacoste_fig3()
    >>> sorted(t["test"].unique()), int(t["n_data_sets"].max())
    (['poisson_binomial', 'sign', 'wilcoxon'], 20)
    """
    size = _size("lacoste-fig3", full)
    return lacoste_auc(single_dirichlet_context(), size["n_data_sets"],
                       n_repetitions=size["n_repetitions"], random_state=random_state,
                       n_jobs=n_jobs, backend=backend, progress=progress)


def lacoste_fig4(*, full: bool = False, random_state=0, n_jobs: int = 1, backend=None,
                 progress: bool = False) -> pd.DataFrame:
    """Lacoste Figure 4: AUC vs N on the 22-Dirichlet mixture of Table 5, n = 1001.

    Same grids as :func:`lacoste_fig3`.

    Examples
    --------
    >>> lacoste_fig4()["context"].iloc[0]
    'multiple Dirichlet'
    """
    size = _size("lacoste-fig4", full)
    return lacoste_auc(multiple_dirichlet_context(), size["n_data_sets"],
                       n_repetitions=size["n_repetitions"], random_state=random_state,
                       n_jobs=n_jobs, backend=backend, progress=progress)


def lacoste_fig5(*, full: bool = False, random_state=0, n_jobs: int = 1, backend=None,
                 progress: bool = False) -> pd.DataFrame:
    """Lacoste Figure 5: AUC vs the test-set size n on the Table 5 mixture, N = 21.

    n in (11, 101, 1001, 10001) with M = 3000 (quick), or n in (11, 31, 101, 301, 1001, 3001,
    10001, 30001, 100001) with M = 10^5 (full).

    Examples
    --------
    >>> lacoste_fig5()["n_test"].tolist()[::3]
    [11, 101, 1001, 10001]
    """
    size = _size("lacoste-fig5", full)
    context = multiple_dirichlet_context()
    seeds = seed_sequence(random_state).spawn(len(size["n_test"]))
    return pd.concat([lacoste_auc(context.with_test_size(n), 21,
                                  n_repetitions=size["n_repetitions"], random_state=seed,
                                  n_jobs=n_jobs, backend=backend, progress=progress)
                      for n, seed in zip(size["n_test"], seeds)], ignore_index=True)


def lacoste_bimodal(*, full: bool = False, random_state=0, n_jobs: int = 1, backend=None,
                    progress: bool = False) -> pd.DataFrame:
    """Lacoste §6.4 bimodal context, n = 100001: the Wilcoxon test's AUC falls below 0.5.

    N = 14 with M = 20000 (quick); N in (5, 10, 14, 20, 30) with M = 10^5 (full). The paper,
    at N = 14: Wilcoxon 0.334, sign and Poisson-binomial above 0.8.

    Examples
    --------
    >>> t = lacoste_bimodal().set_index("test")
    >>> bool(t.loc["wilcoxon", "auc"] < 0.5 < 0.8 < t.loc["sign", "auc"])
    True
    """
    size = _size("lacoste-bimodal", full)
    return lacoste_auc(bimodal_context(), size["n_data_sets"],
                       n_repetitions=size["n_repetitions"], random_state=random_state,
                       n_jobs=n_jobs, backend=backend, progress=progress)


def corani_fig2a(*, full: bool = False, random_state=0, n_jobs: int = 1, backend=None,
                 progress: bool = False) -> pd.DataFrame:
    """Corani & Benavoli (2015) Figure 2a: power vs a delta_acc fixed on all 50 data sets.

    delta_acc in (0, 0.02, 0.04, 0.06, 0.08, 0.1) with 300 experiments (quick) or
    0, 0.01, ..., 0.1 with 5000 (full); 1 and 10 runs of 10-fold CV.

    Returns
    -------
    pandas.DataFrame
        As :func:`outperform.simulate._corani.corani_power`.

    Examples
    --------
    >>> t = corani_fig2a()     # doctest: +SKIP
    >>> bool(t[t["delta_acc"] == 0]["rejection_rate"].max() <= 0.05)   # doctest: +SKIP
    True
    """
    size = _size("corani-fig2a", full)
    return corani_power(size["deltas"], distribution="fixed",
                        n_repetitions=size["n_repetitions"], random_state=random_state,
                        n_jobs=n_jobs, backend=backend, progress=progress)


def corani_fig2b(*, full: bool = False, random_state=0, n_jobs: int = 1, backend=None,
                 progress: bool = False) -> pd.DataFrame:
    """Corani & Benavoli Figure 2b: power when each data set draws delta_acc from a Cauchy.

    Median = scale = delta_bar in (0, 0.01, 0.03, 0.05) with 300 experiments (quick) or
    0, 0.01, ..., 0.05 with 5000 (full).

    Examples
    --------
    >>> corani_fig2b()["distribution"].iloc[0]     # doctest: +SKIP
    'cauchy'
    """
    size = _size("corani-fig2b", full)
    return corani_power(size["deltas"], distribution="cauchy",
                        n_repetitions=size["n_repetitions"], random_state=random_state,
                        n_jobs=n_jobs, backend=backend, progress=progress)


def demsar_replicability(*, full: bool = False, random_state=0, n_jobs: int = 1,
                         backend=None, progress: bool = False, scores=None,
                         pair=("C4.5+m+cf", "C4.5"), n_selected: int = 7) -> pd.DataFrame:
    """Demšar (2006) §4: rejections, mean p-values and replicability vs the selection bias k.

    By default on Demšar's own Table 6 (AUC of four C4.5 variants on 14 data sets, shipped
    with the package), C4.5 with m and cf tuned against plain C4.5, drawing 7 of the 14
    data sets (Demšar drew 10 of 40 accuracies that were never published). k in
    (0, 10, 20, 40) with 200 samples (quick) or 0, 5, ..., 50 with 1000 (full). Pass
    ``scores`` (a wide table, higher is better), ``pair`` and ``n_selected`` for another
    table.

    Returns
    -------
    pandas.DataFrame
        As :func:`outperform.simulate._replicability.demsar_study`.

    Examples
    --------
    >>> t = demsar_replicability()     # doctest: +SKIP
    >>> sorted(t["kind"].unique())     # doctest: +SKIP
    ['multiple classifiers', 'two classifiers']
    """
    if scores is None:
        from ..data import load_demsar_table6

        scores = load_demsar_table6().score_matrix()
    size = _size("demsar-replicability", full)
    return demsar_study(scores, pair=pair, biases=size["biases"], n_selected=n_selected,
                        n_repetitions=size["n_repetitions"], random_state=random_state,
                        n_jobs=n_jobs, backend=backend, progress=progress)


def _plot_auc(x):
    def draw(table, ax=None):
        from ..plot._simulation import plot_auc_curves

        return plot_auc_curves(table, x=x, ax=ax)
    return draw


def _plot_power(table, ax=None):
    from ..plot._simulation import plot_power_curves

    return plot_power_curves(table, ax=ax)


def _plot_replicability(table, ax=None):
    from ..plot._simulation import plot_replicability

    # The left panel stands for the figure: its .figure holds both panels.
    return plot_replicability(table, kind="two classifiers", axes=ax)[0]


#: CLI name -> (study, plot function of its table).
FIGURES: dict[str, tuple[Callable, Callable]] = {
    "lacoste-fig3": (lacoste_fig3, _plot_auc("n_data_sets")),
    "lacoste-fig4": (lacoste_fig4, _plot_auc("n_data_sets")),
    "lacoste-fig5": (lacoste_fig5, _plot_auc("n_test")),
    "lacoste-bimodal": (lacoste_bimodal, _plot_auc("n_data_sets")),
    "corani-fig2a": (corani_fig2a, _plot_power),
    "corani-fig2b": (corani_fig2b, _plot_power),
    "demsar-replicability": (demsar_replicability, _plot_replicability),
}


def run_figure(name: str, *, full: bool = False, random_state=0, n_jobs: int = 1,
               backend=None, progress: bool = False) -> pd.DataFrame:
    """Run the study ``name`` (a key of :data:`FIGURES`, e.g. ``"lacoste-fig3"``).

    Parameters
    ----------
    name : str
    full : bool
        The paper's sizes (:data:`SIZES`) instead of the quick ones.
    random_state : None, int, SeedSequence or Generator
    n_jobs : int
        Parallel workers of joblib (-1: all cores); the table is the same for any value.
    backend : None, "loky", "threading", "dask" or dask.distributed.Client
        joblib backend, as :func:`outperform.simulate.calibration`; a Client runs the study
        on its Dask cluster.
    progress : bool
        A progress bar on stderr (on a terminal).

    Raises
    ------
    InvalidInputError
        Unknown name, bad n_jobs or backend.

    Examples
    --------
    >>> int(run_figure("lacoste-bimodal")["n_data_sets"].iloc[0])
    14
    """
    check_choice(name, "name", tuple(FIGURES))
    _cost(name, full, n_jobs, backend)
    return FIGURES[name][0](full=full, random_state=random_state, n_jobs=n_jobs,
                            backend=backend, progress=progress)


def _cost(name: str, full: bool, n_jobs, backend) -> None:
    """Announce a study's time before it starts (:func:`outperform._cost.check_cost`): its
    simulated experiments (grid points, or data sets over a grid of N, x repetitions of
    :data:`SIZES`) at the measured rate
    (:data:`outperform._cost.SIMULATION_SECONDS_PER_EXPERIMENT`), shared by the workers."""
    import math
    import os

    from .._cost import SIMULATION_SECONDS_PER_EXPERIMENT, check_cost

    size = _size(name, full)
    units = size["n_repetitions"] * math.prod(
        sum(v) if k == "n_data_sets" else len(v) for k, v in size.items()
        if k != "n_repetitions")
    workers = 1
    if isinstance(n_jobs, int) and not isinstance(n_jobs, bool) and backend is None:
        workers = max(1, n_jobs if n_jobs > 0 else (os.cpu_count() or 1) + 1 + n_jobs)
    check_cost("simulated experiments", units,
               work=f"{name}{' at the paper' + chr(39) + 's sizes' if full else ''}: {units:,} "
                    f"simulated experiments on {workers} worker(s)",
               bytes_per_unit=0.0, max_seconds=math.inf,
               seconds_per_unit=SIMULATION_SECONDS_PER_EXPERIMENT[name] / workers,
               advice="the quick sizes (without --full) take seconds; --n-jobs -1 or "
                      "--scheduler shares the work")


def plot_figure(name: str, table: pd.DataFrame, *, ax=None):
    """Draw the table of study ``name``; returns the Axes (``ax.figure`` to save it).

    demsar-replicability draws two panels (pass ``ax`` as a pair of Axes) and returns the
    left one.

    Raises
    ------
    InvalidInputError
        Unknown name, or a table without the study's columns.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_figure("lacoste-bimodal", run_figure("lacoste-bimodal"))
    >>> ax.get_ylabel()
    'AUC'
    """
    check_choice(name, "name", tuple(FIGURES))
    if not isinstance(table, pd.DataFrame):
        raise InvalidInputError("table must be the DataFrame returned by run_figure(name).")
    return FIGURES[name][1](table, ax=ax)
