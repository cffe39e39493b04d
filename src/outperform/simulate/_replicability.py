"""Replicability and biased selection of data sets (Demšar 2006, §4).

Demšar's experiment: from a table of results on many data sets, repeatedly draw a sample of
ten data sets, each chosen with probability proportional to 1/(1 + e^(-k d_i)), d_i the
difference in score between two classifiers on data set i, and run the tests on the sample.
k = 0 is unbiased selection; a larger k favours the data sets where the first classifier
wins, as a researcher keen to show its advantages might. Over the repetitions he reports
the rejection rate at alpha = 5% and the mean p-value (measures of "power"), and two
measures of replicability (§4.1.2):

* Bouckaert's R(e): the probability that two experiments agree (both reject or both not),
  estimated without bias by sum_{i<j} I(e_i = e_j) / (n(n-1)/2)
  = (p(p-1) + q(q-1)) / (n(n-1)) with p acceptances and q rejections out of n
  = 1 - 2 sum_i (e_i - mean(e))^2 / (n - 1).
* R(p) = 1 - 2 var(p), the sample variance (n - 1 denominator) of the p-values.

Both range from about 0.5 (half the experiments reject; p-values split between 0 and 1) to 1
(all experiments agree).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, OutperformError, TooFewError, as_float_array
from .._validation import check_probability, check_random_state
from ..stats import friedman, paired_ttest, repeated_measures_anova, sign_test, wilcoxon
from ._common import check_float_grid, check_int, proportion_se
from ._study import parallel_map, seed_sequence

__all__ = [
    "MULTI_CLASSIFIER_TESTS",
    "TWO_CLASSIFIER_TESTS",
    "demsar_study",
    "replicability_e",
    "replicability_p",
    "select_data_sets",
    "selection_probabilities",
]


def _relative_ttest(a, b):
    return paired_ttest(a, b, relative=True)


#: The tests of Demšar §4.2 (two classifiers) and §4.3 (several), with the kernels' defaults.
TWO_CLASSIFIER_TESTS: dict[str, Callable] = {
    "paired t-test": paired_ttest,
    "paired t-test (relative)": _relative_ttest,
    "Wilcoxon signed-rank": wilcoxon,
    "sign test": sign_test,
}
MULTI_CLASSIFIER_TESTS: dict[str, Callable] = {
    "Friedman": friedman,
    "repeated-measures ANOVA": repeated_measures_anova,
}


def replicability_e(rejected) -> float:
    """Bouckaert's replicability R(e) of n experiments' decisions (Demšar 2006, §4.1.2).

    Parameters
    ----------
    rejected : array_like of bool, shape (n,)
        Whether each experiment rejected the null hypothesis.

    Returns
    -------
    float
        (p(p-1) + q(q-1)) / (n(n-1)), p = acceptances, q = rejections: the unbiased estimate
        of the probability that two experiments agree. 1 when all agree; about 0.5 when
        half reject.

    Raises
    ------
    InvalidInputError
        Values other than booleans / 0-1.
    TooFewError
        Fewer than 2 experiments.

    Examples
    --------
    >>> replicability_e([True] * 6 + [False] * 4)
    0.4666666666666667
    """
    e = as_float_array(rejected, "rejected", ndim=1)
    if not np.all((e == 0) | (e == 1)):
        raise InvalidInputError("rejected must hold booleans (or 0 and 1), one per experiment.")
    n = e.size
    if n < 2:
        raise TooFewError(f"R(e) compares pairs of experiments: it needs at least 2, got {n}.")
    q = float(e.sum())
    p = n - q
    return (p * (p - 1) + q * (q - 1)) / (n * (n - 1))


def replicability_p(pvalues) -> float:
    """Replicability R(p) = 1 - 2 var(p) of n experiments' p-values (Demšar 2006, §4.1.2).

    Parameters
    ----------
    pvalues : array_like, shape (n,)
        p-values in [0, 1].

    Returns
    -------
    float
        1 - 2 sum_i (p_i - mean(p))^2 / (n - 1).

    Raises
    ------
    InvalidInputError
        NaN or values outside [0, 1].
    TooFewError
        Fewer than 2 experiments.

    Examples
    --------
    >>> round(replicability_p([0.01, 0.03, 0.2, 0.04]), 4)
    0.9847
    """
    p = as_float_array(pvalues, "pvalues", ndim=1)
    if p.size < 2:
        raise TooFewError(f"R(p) needs the p-values of at least 2 experiments, got {p.size}.")
    if p.min() < 0 or p.max() > 1:
        raise InvalidInputError("pvalues must lie in [0, 1].")
    return float(1 - 2 * np.var(p, ddof=1))


def selection_probabilities(differences, k: float) -> np.ndarray:
    """Demšar's weights 1/(1 + e^(-k d_i)), normalised to probabilities.

    Parameters
    ----------
    differences : array_like, shape (n_tasks,)
        d_i = score of A - score of B on each data set (in the scores' units).
    k : float
        Bias (0: uniform; > 0 favours data sets where A wins).

    Returns
    -------
    ndarray, shape (n_tasks,)

    Raises
    ------
    InvalidInputError
        NaN differences or bias.

    Examples
    --------
    >>> selection_probabilities([0.1, -0.1], 10).round(4)
    array([0.7311, 0.2689])
    """
    d = as_float_array(differences, "differences", ndim=1)
    k = float(as_float_array(k, "k"))
    # logistic(k d) = exp(-logaddexp(0, -k d)), stable for any sign and size of k d.
    w = np.exp(-np.logaddexp(0.0, -k * d))
    return w / w.sum()


def select_data_sets(differences, k: float, n_selected: int, n_repetitions: int, *,
                     random_state=0) -> np.ndarray:
    """Draw samples of data sets with Demšar's bias, without replacement.

    Each sample draws ``n_selected`` distinct data sets one after the other, each time with
    probability proportional to its weight 1/(1 + e^(-k d_i)) among those left (what
    ``numpy.random.Generator.choice(replace=False, p=...)`` does), vectorised over the
    repetitions with the exponential keys of Efraimidis & Spirakis (2006): the data sets
    with the largest log(U_i) / w_i, U_i uniform.

    Parameters
    ----------
    differences : array_like, shape (n_tasks,)
    k : float
    n_selected : int
        Data sets per sample (10 in Demšar), at most n_tasks.
    n_repetitions : int
    random_state : None, int, SeedSequence or Generator

    Returns
    -------
    ndarray of int, shape (n_repetitions, n_selected)
        Indices of the chosen data sets (in order of selection).

    Raises
    ------
    InvalidInputError
        Bad sizes, NaN differences.

    Examples
    --------
    >>> idx = select_data_sets([0.1, 0.0, -0.1, 0.05], 20, 2, 3, random_state=0)
    >>> idx.shape, bool(np.all(idx[:, 0] != idx[:, 1]))
    ((3, 2), True)
    """
    w = selection_probabilities(differences, k)
    s = check_int(n_selected, "n_selected")
    if s > w.size:
        raise InvalidInputError(
            f"cannot select {s} distinct data sets out of {w.size}; lower n_selected."
        )
    m = check_int(n_repetitions, "n_repetitions")
    rng = check_random_state(random_state)
    with np.errstate(divide="ignore"):
        keys = np.log(rng.random((m, w.size))) / w
    return np.argsort(-keys, axis=1, kind="stable")[:, :s]


def _score_table(scores, models):
    """(values (n_tasks, k), model names) from a wide DataFrame, a ScoreMatrix or an array."""
    if isinstance(scores, pd.DataFrame):
        values, names = scores.to_numpy(dtype=float), [str(c) for c in scores.columns]
    elif hasattr(scores, "values") and hasattr(scores, "models"):
        values, names = np.asarray(scores.values, dtype=float), list(scores.models)
        if not getattr(scores, "higher_is_better", True):
            values = -values   # the tests and the bias read "higher is better"
    else:
        values = np.asarray(scores, dtype=float)
        names = list(models) if models is not None else [f"model {j}" for j in
                                                         range(values.shape[-1])]
    values = as_float_array(values, "scores", ndim=2)
    if len(names) != values.shape[1]:
        raise InvalidInputError(f"models must name the {values.shape[1]} columns of scores.")
    return values, names


def _column(names, model) -> int:
    if isinstance(model, (int, np.integer)) and 0 <= model < len(names):
        return int(model)
    if model in names:
        return names.index(model)
    raise InvalidInputError(f"unknown model {model!r}; the models are {names}.")


def _tests(tests, default) -> dict[str, Callable]:
    if tests is None:
        return dict(default)
    if not isinstance(tests, Mapping) or not all(callable(f) for f in tests.values()):
        raise InvalidInputError("tests must be a dict {name: function}.")
    return dict(tests)


def _study_chunk(values, ia, ib, indices, two, multi):
    """p-values (n_tests, len(indices)); NaN where a test raised (degenerate sample)."""
    names = [*two, *multi]
    out = np.full((len(names), len(indices)), np.nan)
    for j, rows in enumerate(indices):
        sample = values[rows]
        for i, name in enumerate(names):
            try:
                res = (two[name](sample[:, ia], sample[:, ib]) if name in two
                       else multi[name](sample))
                out[i, j] = float(res.pvalue)
            except OutperformError:
                continue
    return out


def demsar_study(scores, *, pair=(0, 1), biases=(0, 2, 4, 6, 8, 10, 15, 20),
                 n_selected: int = 10, n_repetitions: int = 1000, alpha: float = 0.05,
                 models=None, two_classifier_tests=None, multi_classifier_tests=None,
                 random_state=0, n_jobs: int = 1, backend=None,
                 progress: bool = False) -> pd.DataFrame:
    """Rejection rates, mean p-values and replicability under biased data-set selection.

    Demšar (2006) §4: for each bias k, draw ``n_repetitions`` samples of ``n_selected``
    data sets with :func:`select_data_sets` (d_i = score of ``pair[0]`` - score of
    ``pair[1]``), run the two-classifier tests on the pair and the multiple-classifier tests
    on all models.

    Parameters
    ----------
    scores : pandas.DataFrame, ScoreMatrix or array_like (n_tasks, n_models)
        One score per data set and model, higher is better (a ScoreMatrix of losses is
        negated). A DataFrame is wide: data sets as rows, models as columns.
    pair : (model, model)
        Names or column indices of the two classifiers that drive the bias and are compared.
    biases : float or sequence of float
        Values of k (in the scores' units: with accuracies in [0, 1], k = 20 makes a data
        set won by 5 points e times as likely as a tied one, roughly).
    n_selected : int
        Data sets per sample (Demšar: 10 of 40).
    n_repetitions : int
        Samples per bias (Demšar: 1000).
    alpha : float
    models : sequence of str, optional
        Column names when ``scores`` is an array.
    two_classifier_tests, multi_classifier_tests : dict {name: function}, optional
        Default :data:`TWO_CLASSIFIER_TESTS` (paired t-test, on relative differences,
        Wilcoxon, sign test) and :data:`MULTI_CLASSIFIER_TESTS` (Friedman, ANOVA; only with
        three models or more). Each returns a result with a ``pvalue``.
    random_state : None, int, SeedSequence or Generator
        All biases reuse the same uniform draws (common random numbers).
    n_jobs, backend, progress
        Parallel execution over the biases and progress bar (:mod:`outperform.simulate._study`).

    Returns
    -------
    pandas.DataFrame
        One row per (k, test): ``k``, ``test``, ``kind`` ("two classifiers" or "multiple
        classifiers"), ``n_repetitions`` (samples where the test ran), ``n_errors``
        (degenerate samples), ``alpha``, ``rejection_rate``, ``mc_se``, ``mean_pvalue``,
        ``replicability_p`` (R(p)), ``replicability_e`` (R(e)).

    Raises
    ------
    InvalidInputError
        Unknown models, bad sizes or tests.

    Examples
    --------
    Demšar's Table 6 (AUC of C4.5 variants on 14 data sets), C4.5+m+cf against C4.5:

    >>> from outperform.data import load_demsar_table6
    >>> table = load_demsar_table6().score_matrix()
    >>> t = demsar_study(table, pair=("C4.5+m+cf", "C4.5"), biases=[0, 20], n_selected=7,
    ...                  n_repetitions=50, random_state=0)
    >>> t[t["test"] == "Wilcoxon signed-rank"][["k", "rejection_rate"]].values.tolist()
    [[0.0, 0.42], [20.0, 0.56]]
    """
    values, names = _score_table(scores, models)
    if len(pair) != 2:
        raise InvalidInputError("pair must name two models.")
    ia, ib = _column(names, pair[0]), _column(names, pair[1])
    if ia == ib:
        raise InvalidInputError("pair must name two different models.")
    ks = [float(k) for k in check_float_grid(biases, "biases")]
    m = check_int(n_repetitions, "n_repetitions", minimum=2)
    alpha = check_probability(alpha, "alpha")
    two = _tests(two_classifier_tests, TWO_CLASSIFIER_TESTS)
    multi = _tests(multi_classifier_tests, MULTI_CLASSIFIER_TESTS) if values.shape[1] > 2 else {}
    seed = seed_sequence(random_state)
    d = values[:, ia] - values[:, ib]
    tasks = [(values, ia, ib, select_data_sets(d, k, n_selected, m,
                                               random_state=np.random.SeedSequence(
                                                   seed.entropy, spawn_key=seed.spawn_key)),
              two, multi) for k in ks]
    chunks = parallel_map(_study_chunk, tasks, [m] * len(ks), n_jobs=n_jobs, backend=backend,
                          progress=progress, description="Demšar §4")
    rows = []
    for k, pvalues in zip(ks, chunks):
        for name, p in zip([*two, *multi], pvalues):
            ok = p[~np.isnan(p)]
            rejected = ok <= alpha
            n_ok = ok.size
            rate = float(rejected.mean()) if n_ok else math.nan
            rows.append({
                "k": k, "test": name,
                "kind": "two classifiers" if name in two else "multiple classifiers",
                "n_repetitions": n_ok, "n_errors": m - n_ok, "alpha": alpha,
                "rejection_rate": rate,
                "mc_se": float(proportion_se(rate, n_ok)) if n_ok else math.nan,
                "mean_pvalue": float(ok.mean()) if n_ok else math.nan,
                "replicability_p": replicability_p(ok) if n_ok >= 2 else math.nan,
                "replicability_e": replicability_e(rejected) if n_ok >= 2 else math.nan,
            })
    return pd.DataFrame(rows)
