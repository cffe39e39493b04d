"""The options of a benchmark run, checked before the first fit.

A run of many fits that ends by refusing its analysis (an alpha of 1, a negative ROPE) or its
output file wastes the fits: :func:`check_run_options` refuses such options up front, and
:func:`~outperform.experiments.run_experiment` calls it before any fit.
"""
from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path

from .._validation import InvalidInputError, check_probability

__all__ = ["check_run_options"]

_SUFFIXES = (".parquet", ".pq", ".csv")


def check_run_options(*, metrics=("accuracy",), n_jobs=1, out=None, alpha=None,
                      rope=None) -> None:
    """Refuse options of a benchmark run (fits, then the Q2/Q3 analysis) that cannot work.

    Parameters
    ----------
    metrics : str, sequence of str or mapping
        scikit-learn scorer names (``sklearn.metrics.get_scorer_names()``); a mapping's
        values are scorers and are not checked here.
    n_jobs : int
        Parallel fits: a non-zero int (-1: all cores).
    out : str or Path, optional
        Results file: ``.parquet``, ``.pq`` or ``.csv``, not a folder, in an existing folder
        this process may write to.
    alpha : float, optional
        Significance level of the analysis, in (0, 1).
    rope : float, optional
        ROPE half-width of the Bayesian tests, a finite number >= 0.

    Raises
    ------
    InvalidInputError
        Each message names the option (the command line's spelling in brackets) and what
        to give instead.
    """
    if alpha is not None:
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise InvalidInputError(f"alpha (--alpha) must be a number in (0, 1), got {alpha!r}.")
        check_probability(alpha, "alpha (--alpha), the significance level,")
    if rope is not None:
        if isinstance(rope, bool) or not isinstance(rope, (int, float)) \
                or not math.isfinite(rope) or rope < 0:
            raise InvalidInputError(
                f"rope (--rope) is the half-width of the region of practical equivalence, a "
                f"number >= 0 in the metric's units (e.g. 0.01 for accuracy), got {rope!r}.")
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise InvalidInputError(f"n_jobs (--n-jobs) must be a non-zero whole number (1: one fit "
                                f"at a time, -1: all cores), got {n_jobs!r}.")
    _check_metrics(metrics)
    if out is not None:
        _check_out(Path(out))


def _check_metrics(metrics) -> None:
    if isinstance(metrics, Mapping):
        return
    names = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    if not names:
        raise InvalidInputError("metrics (--metric) is empty: give a scikit-learn scorer name "
                                "such as 'accuracy'.")
    from sklearn.metrics import get_scorer_names

    known = set(get_scorer_names())
    unknown = [m for m in names if not isinstance(m, str) or m not in known]
    if unknown:
        import difflib

        close = difflib.get_close_matches(str(unknown[0]), sorted(known), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise InvalidInputError(
            f"metric (--metric) {unknown[0]!r} is not a valid scoring name of scikit-learn{hint}; see "
            "sklearn.metrics.get_scorer_names(), e.g. accuracy, balanced_accuracy, f1_macro, "
            "roc_auc, neg_log_loss.")


def _check_out(out: Path) -> None:
    if out.suffix.lower() not in _SUFFIXES:
        raise InvalidInputError(f"out must end in .parquet, .pq or .csv (the results table's "
                                f"format), got {str(out)!r} (--out).")
    if out.is_dir():
        raise InvalidInputError(f"out (--out) {str(out)!r} is a folder; give a file name in it, "
                                f"e.g. {str(out / 'results.parquet')!r}.")
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise InvalidInputError(f"out (--out): the folder {str(folder)!r} does not exist; "
                                "create it or give another path.")
    if not os.access(folder, os.W_OK | os.X_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise InvalidInputError(f"out (--out) {str(out)!r} cannot be written (no permission "
                                "to write there); give a path in a folder you may write to.")
