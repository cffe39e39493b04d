"""Ratings from a table of pairwise battles (Chatbot Arena style): read, check, fit."""
from __future__ import annotations

import dataclasses

from .._deprecation import renamed
from ..data._battles import battle_counts
from ..data._io import read_results
from ..results._ratings import BradleyTerryResult, PlackettLuceResult
from ..stats._bradley_terry import bradley_terry as _fit

__all__ = ["bradley_terry", "plackett_luce"]


@renamed(confidence_level="alpha")
def bradley_terry(battles, *, ties: str = "davidson", anchor: str | None = None,
                  anchor_rating: float = 1000.0, alpha: float = 0.05,
                  interval: str = "sandwich", n_resamples: int = 1000,
                  random_state=0, progress: bool = False, anony_only: bool = False,
                  drop_ties: str = "none", language=None,
                  encoding: str | None = None) -> BradleyTerryResult:
    """Bradley–Terry ratings (Elo scale, with intervals) of the models in a battles table.

    Reads the table and aggregates its battles into counts once with
    :func:`outperform.data.battle_counts`, and fits :func:`outperform.stats.bradley_terry`
    on the counts (the same fit, covariances and bootstrap as on the battles, in a time
    that hardly grows with their number), whose docstring gives the model (Davidson 1970
    for ties), the fit, the intervals and the Elo scale.

    Parameters
    ----------
    battles : str, Path, DataFrame or list of dict
        Columns ``model_a``, ``model_b``, ``winner`` (``a``, ``b``, ``tie``; Chatbot Arena's
        ``model_a``, ``model_b``, ``tie (bothbad)`` also read) and optional ``weight``; or
        a Chatbot Arena battle log (.json, .jsonl) or its records.
    ties : {"davidson", "half"}
        Ties as a third outcome (Davidson), or half a win for each side (Chatbot Arena).
    anchor : str, optional
        Model placed at ``anchor_rating``; None: the mean rating is ``anchor_rating``.
    anchor_rating, alpha, interval, n_resamples, random_state, progress
        As in :func:`outperform.stats.bradley_terry`.
    anony_only, drop_ties, language, encoding
        The reader's filters, as in :func:`outperform.data.read_battles`; what they kept is
        stated in the result's ``notes``.

    Returns
    -------
    BradleyTerryResult

    Raises
    ------
    InvalidInputError, TooFewError, DegenerateDataError
        See :func:`outperform.data.read_battles` and :func:`outperform.stats.bradley_terry`.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"model_a": ["x", "x", "y", "z", "y", "x"],
    ...                    "model_b": ["y", "z", "z", "x", "x", "y"],
    ...                    "winner": ["a", "a", "tie", "a", "a", "tie"]})
    >>> res = bradley_terry(df, anchor="x")
    >>> [round(float(r)) for r in res.ratings]
    [1000, 1000, 1000]
    """
    table = battle_counts(battles, anony_only=anony_only, drop_ties=drop_ties,
                          language=language, encoding=encoding)
    result = _fit(table["model_a"].to_numpy(), table["model_b"].to_numpy(),
                  table["winner"].to_numpy(), weights=table["weight"].to_numpy(),
                  counts=table["count"].to_numpy(), ties=ties,
                  anchor=anchor, anchor_rating=anchor_rating,
                  alpha=alpha, interval=interval,
                  n_resamples=n_resamples, random_state=random_state, progress=progress)
    notes = table.attrs.get("notes", ())
    return dataclasses.replace(result, notes=tuple(notes) + result.notes) if notes else result


def plackett_luce(data, *, metric: str | None = None, higher_is_better: bool | None = None,
                  **options) -> PlackettLuceResult:
    """Bayesian Plackett–Luce over the per-task rankings of a results table (Calvo et al. 2018).

    Reads ``data`` with :func:`outperform.data.read_results` (long or wide; runs and folds
    averaged to one score per task and model), ranks the models on each task by the
    metric's direction and runs :func:`outperform.bayes.plackett_luce`.

    Parameters
    ----------
    data : str, Path, DataFrame or ResultsTable
        The Q3 table: tasks (data sets) x models.
    metric, higher_is_better
        As in :func:`outperform.data.read_results`.
    **options
        ``prior``, ``n_chains``, ``n_samples``, ``n_warmup``, ``random_state``,
        ``progress`` of :func:`outperform.bayes.plackett_luce`.

    Returns
    -------
    PlackettLuceResult

    Raises
    ------
    InvalidInputError
        A table with missing cells, and every error of the two functions above.
    """
    from ..bayes._plackett_luce import plackett_luce as _pl

    table = read_results(data, metric=metric, higher_is_better=higher_is_better)
    scores = table.score_matrix(metric)
    return _pl(scores.values, names=scores.models, higher_is_better=scores.higher_is_better,
               **options)
