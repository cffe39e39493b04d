"""scikit-learn's results read into the tidy table: fitted searches, ``cv_results_`` dicts,
``cross_validate`` dicts.

One contract (as every reader of :mod:`outperform.data`): :func:`read_sklearn` returns the
long table the rest of the package reads — ``task``, ``model``, ``run``, ``fold``, the metric
column named after the scorer, and ``n_train``/``n_test`` when the sizes are known — with
its provenance in ``frame.attrs["provenance"]`` (the source, the design, the candidates'
parameters). :func:`is_sklearn_result` recognises the inputs without importing scikit-learn.

The design of the splits — r repeats × k folds, or r random holdouts — is what the
corrected resampled t-test needs (Nadeau & Bengio 2003: rho = n_test / (n_train + n_test)).
It is read from the splitter (``search.cv``, or ``cv=``): k-fold splitters give
``run``/``fold`` (rho = 1/k, exact up to the rounding of the fold sizes); repeated ones
(``RepeatedKFold``, ``RepeatedStratifiedKFold``) their ``n_repeats``; random holdouts
(``ShuffleSplit`` and its kin) their sizes, from ``n_samples``/``X`` when given as fractions;
an explicit list of (train, test) index pairs its exact sizes. When the design is unknown
(a ``cv_results_`` or ``cross_validate`` dict alone) it is refused unless ``n_train=`` and
``n_test=`` (or ``cv=``) are given: scores of 10 × 10-fold CV read as 100 folds would give
rho = 1/100 instead of 1/10, a wrong answer in silence.
"""
from __future__ import annotations

import re
import warnings
from typing import Mapping

import numpy as np
import pandas as pd

from .._errors import InvalidInputError, OutperformWarning, TooFewError
from ._columns import FOLD, MODEL, N_TEST, N_TRAIN, RUN, TASK
from ._sklearn_splits import split_design

_SPLIT = re.compile(r"^split(\d+)_test_(.+)$")
#: Candidates beyond which a comparison of every candidate is hard to read: warn, name top=.
MANY_CANDIDATES = 10


def is_search(data) -> bool:
    """A ``*SearchCV`` (fitted or not: an unfitted one is refused by name)."""
    return (hasattr(data, "estimator") and hasattr(data, "cv")
            and (hasattr(data, "param_grid") or hasattr(data, "param_distributions")))


def _is_cv_results(data) -> bool:
    return isinstance(data, Mapping) and "params" in data and any(
        isinstance(k, str) and _SPLIT.match(k) for k in data)


def _is_cross_validate(data) -> bool:
    return (isinstance(data, Mapping) and "params" not in data and any(
        isinstance(k, str) and k.startswith("test_") for k in data)
        and all(isinstance(k, str) for k in data))


def _is_models_of_cross_validate(data) -> bool:
    return (isinstance(data, Mapping) and len(data) > 0
            and all(_is_cross_validate(v) for v in data.values()))


def is_sklearn_result(data) -> bool:
    """Whether ``data`` is one of the scikit-learn results :func:`read_sklearn` reads."""
    return (is_search(data) or _is_cv_results(data) or _is_cross_validate(data)
            or _is_models_of_cross_validate(data))


def read_sklearn(data, *, metric: str | None = None, top: int | None = None, cv=None,
                 n_train: float | None = None, n_test: float | None = None,
                 n_samples: int | None = None, X=None,
                 rho: float | None = None) -> pd.DataFrame:
    """Read a scikit-learn search or cross-validation result into the tidy long table.

    Parameters
    ----------
    data : fitted GridSearchCV, RandomizedSearchCV, HalvingGridSearchCV, HalvingRandomSearchCV,
        their ``cv_results_`` dict, or a dict ``{name: cross_validate(...) dict}``
        One model per candidate of the search (named by the parameters that vary among
        the candidates compared, e.g. ``"kernel=poly, degree=3"``) or per key of the dict.
        A halving search compares the candidates of its last iteration (they alone were
        evaluated on the most resources). A single ``cross_validate`` dict is refused: one
        model cannot be compared; put it in a dict beside a baseline's.
    metric : str, optional
        The scorer of a multi-metric search or of ``cross_validate(scoring=[...])``;
        default: a search's ``refit`` scorer, or the only one.
    top : int >= 2, optional
        Compare only the best ``top`` candidates by mean test score (``rank_test_<metric>``).
    cv : splitter, int or iterable of (train, test), optional
        The splitter the scores came from, when ``data`` does not carry it (a
        ``cv_results_`` or ``cross_validate`` dict); a search's own ``cv`` is used otherwise.
    n_train, n_test : float, optional
        Sizes of a training and a test set: override the design's (the correlation of the
        corrected t-test is n_test / (n_train + n_test)).
    n_samples : int, optional
        Number of examples the splitter split (default ``len(X)``, or a halving search's
        last ``n_resources_`` when its resource is ``n_samples``): turns a holdout
        splitter's fractions into sizes.
    X : array-like, optional
        The data searched on; only its length is read.
    rho : float, optional
        The correlation of the corrected t-test, when given (``compare(rho=)``): the splits
        are then read as runs and no design is needed.

    Returns
    -------
    DataFrame
        One row per (candidate, split): ``task`` (the estimator's class name), ``model``,
        ``run``, ``fold``, the metric (column named after the scorer: ``roc_auc``,
        ``neg_log_loss``; ``score`` for an estimator's own ``score``), and ``n_train``,
        ``n_test`` when known. Models are ordered best first. scikit-learn's scores are all
        higher-is-better (losses are negated, ``neg_*``): ``attrs["higher_is_better"]`` is
        True. ``attrs["provenance"]`` holds ``source``, ``design``, ``metric`` and
        ``candidates`` (model name -> its parameters, as text).

    Raises
    ------
    InvalidInputError
        One ``cross_validate`` dict; several scorers and no ``metric``; an unknown metric;
        ``top`` < 2; models of a dict with different numbers of splits; a design that cannot
        be read (no splitter, a splitter of unknown kind, holdout fractions without
        ``n_samples``): the message names ``n_train=``/``n_test=``.
    TooFewError
        Fewer than 2 candidates with finite scores on every split.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = make_classification(n_samples=60, random_state=0)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0),
    ...                       {"max_depth": [1, 3]}, cv=3).fit(X, y)
    >>> table = read_sklearn(search)
    >>> sorted(table["model"].unique()), table.attrs["provenance"]["design"]
    (['max_depth=1', 'max_depth=3'], '3-fold cross-validation (rho = 1/3)')
    """
    if top is not None and (isinstance(top, bool) or not isinstance(top, (int, np.integer))
                            or top < 2):
        raise InvalidInputError(f"top must be an integer of at least 2 (the number of best "
                                f"candidates to compare), got {top!r}.")
    if _is_cross_validate(data):
        raise InvalidInputError(
            "this is one model's cross_validate result: one model cannot be compared. Pass a "
            "dict of several models' results, e.g. {'model': cross_validate(model, X, y, "
            "cv=cv), 'baseline': cross_validate(DummyClassifier(), X, y, cv=cv)}, on the same "
            "cv splits.")
    if X is not None and n_samples is None:
        n_samples = len(X)
    if is_search(data):
        return _from_search(data, metric=metric, top=top, cv=cv, n_train=n_train,
                            n_test=n_test, n_samples=n_samples, rho=rho)
    if _is_cv_results(data):
        return _from_cv_results(data, metric=metric, top=top, cv=cv, n_train=n_train,
                                n_test=n_test, n_samples=n_samples, rho=rho, task="search",
                                source="cv_results_ dict")
    if _is_models_of_cross_validate(data):
        return _from_cross_validate(data, metric=metric, top=top, cv=cv, n_train=n_train,
                                    n_test=n_test, n_samples=n_samples, rho=rho)
    raise InvalidInputError(
        f"expected a fitted scikit-learn search, its cv_results_, or a dict of cross_validate "
        f"results, got {type(data).__name__}.")


def _from_search(search, *, metric, top, cv, n_train, n_test, n_samples, rho) -> pd.DataFrame:
    if not hasattr(search, "cv_results_"):
        raise InvalidInputError(f"the {type(search).__name__} is not fitted: call "
                                ".fit(X, y) before comparing its candidates.")
    scoring = getattr(search, "scoring", None)
    if metric is None and isinstance(getattr(search, "refit", None), str):
        metric = search.refit
    resource = getattr(search, "resource", None)
    if n_samples is None and resource == "n_samples" and getattr(search, "n_resources_", None):
        n_samples = int(search.n_resources_[-1])
    grid = getattr(search, "param_grid", None) or getattr(search, "param_distributions", None)
    order = _grid_order(grid)
    return _from_cv_results(
        search.cv_results_, metric=metric, top=top, cv=search.cv if cv is None else cv,
        n_train=n_train, n_test=n_test, n_samples=n_samples, rho=rho,
        task=type(search.estimator).__name__, source=type(search).__name__,
        single=scoring if isinstance(scoring, str) else None, order=order)


def _grid_order(grid) -> list:
    """The parameter names in the order the user wrote them (a grid or a list of grids)."""
    grids = grid if isinstance(grid, (list, tuple)) else [grid] if grid else []
    seen: dict = {}
    for g in grids:
        if isinstance(g, Mapping):
            seen.update(dict.fromkeys(g))
    return list(seen)


def _from_cv_results(results, *, metric, top, cv, n_train, n_test, n_samples, rho, task,
                     source, single=None, order=()) -> pd.DataFrame:
    scorers = sorted({m.group(2) for k in results if (m := _SPLIT.match(str(k)))})
    scorer = _choose(scorers, metric, "cv_results_")
    splits = sorted(int(m.group(1)) for k in results
                    if (m := _SPLIT.match(str(k))) and m.group(2) == scorer)
    scores = np.column_stack([np.asarray(results[f"split{i}_test_{scorer}"], dtype=float)
                              for i in splits])
    params = list(results["params"])
    keep = np.arange(len(params))
    notes = []
    if "iter" in results:   # successive halving: the last iteration's candidates
        it = np.asarray(results["iter"])
        keep = keep[it == it.max()]
        notes.append(f"successive halving: the {keep.size} candidates of the last iteration "
                     f"(iteration {int(it.max())}, the most resources) are compared.")
    finite = np.isfinite(scores[keep]).all(axis=1)
    if not finite.all():
        warnings.warn(f"{int((~finite).sum())} candidate(s) have NaN scores (failed fits) and "
                      "are left out of the comparison.", OutperformWarning, stacklevel=4)
        keep = keep[finite]
    mean = scores[keep].mean(axis=1)
    keep = keep[np.argsort(-mean, kind="stable")]   # best first, as rank_test_ orders them
    if top is not None:
        keep = keep[:top]
    if keep.size < 2:
        raise TooFewError(f"{keep.size} candidate(s) with finite scores on every split: "
                          "at least 2 are needed to compare.")
    if top is None and keep.size > MANY_CANDIDATES:
        warnings.warn(f"{keep.size} candidates compared (all pairs): pass top=k to compare "
                      "the best k by mean test score.", OutperformWarning, stacklevel=4)
    names = candidate_names([params[i] for i in keep], order)
    metric_name = single if (single and scorer == "score") else scorer
    design = split_design(cv, len(splits), n_train=n_train, n_test=n_test,
                          n_samples=n_samples, rho=rho)
    return _long(scores[keep], names, design, task=task, metric=metric_name, provenance={
        "source": source, "metric": metric_name, "notes": notes,
        "candidates": {n: {k: _value(v) for k, v in params[i].items()}
                       for n, i in zip(names, keep)}})


def _from_cross_validate(results, *, metric, top, cv, n_train, n_test, n_samples,
                         rho) -> pd.DataFrame:
    names = [str(k) for k in results]
    scorers = [sorted(k[5:] for k in r if k.startswith("test_")) for r in results.values()]
    common = sorted(set.intersection(*map(set, scorers)))
    scorer = _choose(common, metric, "the cross_validate results")
    rows = [np.asarray(r[f"test_{scorer}"], dtype=float) for r in results.values()]
    if len({len(r) for r in rows}) > 1:
        raise InvalidInputError(
            "the models were scored on different numbers of splits "
            f"({dict(zip(names, map(len, rows)))}): the comparison pairs them split by split; "
            "run cross_validate with the same cv for every model.")
    if len(names) < 2:
        raise InvalidInputError(
            "one model cannot be compared: add a baseline's cross_validate result to the dict, "
            "on the same cv splits.")
    scores = np.vstack(rows)
    order = np.argsort(-scores.mean(axis=1), kind="stable")
    if top is not None:
        order = order[:top]
    indices = [r.get("indices") for r in results.values()]
    if n_train is None and n_test is None and indices[0] is not None:
        n_train = np.array([len(t) for t in indices[0]["train"]], dtype=float)
        n_test = np.array([len(t) for t in indices[0]["test"]], dtype=float)
    design = split_design(cv, scores.shape[1], n_train=n_train, n_test=n_test,
                          n_samples=n_samples, rho=rho)
    return _long(scores[order], [names[i] for i in order], design, task="cross_validate",
                 metric="score" if scorer == "score" else scorer, provenance={
                     "source": "cross_validate", "metric": scorer, "notes": [],
                     "candidates": {}})


def _choose(scorers: list, metric: str | None, where: str) -> str:
    if not scorers:
        raise InvalidInputError(f"{where} holds no test scores (split0_test_*/test_*).")
    if metric is not None:
        key = str(metric)
        for prefix in ("mean_test_", "test_"):
            key = key[len(prefix):] if key.startswith(prefix) else key
        if key not in scorers:
            raise InvalidInputError(f"metric {metric!r} is not a scorer of {where}: "
                                    f"{scorers}.")
        return key
    if len(scorers) > 1:
        raise InvalidInputError(f"{where} holds several scorers, {scorers}: choose one with "
                                "metric= (--metric).")
    return scorers[0]


def _value(v) -> str:
    if hasattr(v, "get_params"):
        return type(v).__name__
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return repr(v)
    return str(v)


def candidate_names(params: list, order=()) -> list[str]:
    """Readable names of search candidates: the parameters whose values differ among them,
    ``"name=value"`` joined by ``", "``, in the order of the user's grid (then as met).

    A parameter absent from some candidates (a list of grids) differs; estimators are named
    by their class; a step prefix (``svc__C``) is dropped when the short names stay distinct.

    >>> candidate_names([{"C": 1, "kernel": "rbf"}, {"C": 10, "kernel": "rbf"}])
    ['C=1', 'C=10']
    >>> candidate_names([{"kernel": "linear"}, {"degree": 2, "kernel": "poly"}], ["kernel"])
    ['kernel=linear', 'kernel=poly, degree=2']
    """
    keys = list(dict.fromkeys([*order, *(k for p in params for k in p)]))
    varies = [k for k in keys
              if len({_value(p[k]) if k in p else "\0" for p in params}) > 1]
    short = {k: k.rsplit("__", 1)[-1] for k in varies}
    if len(set(short.values())) < len(short):
        short = {k: k for k in varies}
    names = [", ".join(f"{short[k]}={_value(p[k])}" for k in varies if k in p) or "candidate"
             for p in params]
    if len(set(names)) < len(names):
        names = [f"{n} #{i}" for i, n in enumerate(names)]
    return names


def _long(scores: np.ndarray, names: list, design: dict, *, task, metric,
          provenance) -> pd.DataFrame:
    m, s = scores.shape
    frame = pd.DataFrame({TASK: task, MODEL: np.repeat(names, s),
                          RUN: np.tile(design["run"], m), FOLD: np.tile(design["fold"], m),
                          metric: scores.ravel()})
    if design["n_train"] is not None:
        frame[N_TRAIN] = np.tile(design["n_train"], m)
        frame[N_TEST] = np.tile(design["n_test"], m)
    frame.attrs["higher_is_better"] = True
    frame.attrs["provenance"] = {**provenance, "design": design["design"]}
    return frame
