"""Poisson-binomial test of Lacoste, Laviolette & Marchand (2012): is A better in a context?

Sign convention: **A better = right**. Everything is stated for model A against model B.

Single data set (Lacoste §4, Theorem 4.1). On a test set shared by the two classifiers,
let k_A be the number of examples A gets wrong and B gets right, k_B the reverse. With the
Dirichlet prior of §4.1 (alpha_A = alpha_B = alpha~, default 1, the uniform),

    p = Pr(A better than B on this data set) = I_{1/2}(alpha~ + k_A, alpha~ + k_B),

the regularised incomplete Beta function (a data set with k_A = k_B, e.g. no discordant
example, gives exactly 1/2).

Many data sets (§5). The number kappa of data sets on which A is better follows the
Poisson-binomial distribution of the p_i (eq. 5). The probability r = q~_{AB|W} that A beats
B on a data set drawn from the context W (eq. 1) has, given kappa wins out of N, the Beta
posterior Beta(kappa + beta, N - kappa + beta) (prior Beta(beta, beta), beta = 1 by default).
A is better than B in the context when r > 1/2 (eq. 2), so

    Pr(A better in W | data) = sum_kappa Pr(kappa | data) I_{1/2}(N - kappa + beta, kappa + beta).

The "better in a context" relation is not transitive (§5.1, Figure 2): a pairwise table can
hold cycles A > B > C > A, which :func:`find_cycles` names.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import special

from .._validation import (
    InvalidInputError,
    TooFewError,
    as_counts,
    as_float_array,
    check_choice,
    check_probability, check_threshold,
)
from ..results import BayesianResult, PairwiseResult
from .._names import model_names
from ..stats._poisson_binomial import batch_method, poisson_binomial_pmf
from ._beta_mixture import BetaMixture
from ._pairwise import bayesian_pairwise_result
from ._rope import decide

__all__ = [
    "context_posterior",
    "pairwise_poisson_binomial_test",
    "poisson_binomial_test",
    "task_probability_a_better",
]

KINDS = ("discordant", "correct", "probability")
METHOD = "Poisson-binomial test (Lacoste et al. 2012)"
PARAMETER = ("r = probability that A beats B on a data set drawn from the context "
             "(Lacoste et al. 2012, eq. 1)")


def _check_positive(value, name: str) -> float:
    if not (np.isfinite(value) and value > 0):
        raise InvalidInputError(f"{name} must be a positive number, got {value!r}.")
    return float(value)


def task_probability_a_better(errors_a_only, errors_b_only, *, prior: float = 1.0) -> np.ndarray:
    """Probability that A is better than B on each data set (Lacoste et al. 2012, Thm 4.1).

    Parameters
    ----------
    errors_a_only : array_like of int
        Per data set, the number of test examples A gets wrong and B gets right (k_h of
        Lacoste; ``n01`` of :func:`outperform.bayes._mcnemar.bayesian_mcnemar`).
    errors_b_only : array_like of int, same shape
        The number of examples B gets wrong and A gets right (k_g; ``n10``).
    prior : float
        alpha~ > 0 of the symmetric Dirichlet prior (§4.1; 1 = uniform).

    Returns
    -------
    ndarray
        I_{1/2}(prior + errors_a_only, prior + errors_b_only); exactly 0.5 where the counts
        are equal, and p(A, B) = 1 - p(B, A) to rounding.

    Raises
    ------
    InvalidInputError
        Negative or non-integer counts, shapes that differ, prior <= 0.

    Examples
    --------
    >>> task_probability_a_better([3, 5, 0], [7, 5, 0]).round(4)
    array([0.8867, 0.5   , 0.5   ])
    """
    k_a = as_counts(errors_a_only, "errors_a_only")
    k_b = as_counts(errors_b_only, "errors_b_only")
    if k_a.shape != k_b.shape:
        raise InvalidInputError(
            f"errors_a_only and errors_b_only must have the same shape (one count per data set), "
            f"got {k_a.shape} and {k_b.shape}."
        )
    prior = _check_positive(prior, "prior")
    x, y = prior + k_a, prior + k_b
    # Evaluate the smaller tail directly (it keeps its precision) and take the complement
    # for the other: swapping A and B then gives complementary values.
    small = special.betainc(np.maximum(x, y), np.minimum(x, y), 0.5)
    p = np.where(x > y, small, 1.0 - small)
    return np.where(x == y, 0.5, p)


def _discordance_from_correct(a, b) -> tuple[np.ndarray, np.ndarray]:
    if any(isinstance(x, (str, bytes)) or not hasattr(x, "__len__") for x in (a, b)):
        raise InvalidInputError("a and b must be sequences of per-example correctness arrays.")
    if len(a) != len(b):
        raise InvalidInputError(
            f"a and b must hold one correctness array per data set, got {len(a)} and {len(b)}."
        )
    k_a, k_b = np.zeros(len(a), dtype=np.int64), np.zeros(len(a), dtype=np.int64)
    for d, (x, y) in enumerate(zip(a, b)):
        ca, cb = _correctness(x, f"a[{d}]", ndim=1), _correctness(y, f"b[{d}]", ndim=1)
        if ca.shape != cb.shape:
            raise InvalidInputError(
                f"data set {d}: A and B must be scored on the same test examples, got "
                f"{ca.size} and {cb.size} examples."
            )
        k_a[d] = np.count_nonzero(~ca & cb)
        k_b[d] = np.count_nonzero(ca & ~cb)
    return k_a, k_b


def _correctness(x, name: str, *, ndim: int) -> np.ndarray:
    arr = as_float_array(x, name, ndim=ndim)
    if arr.size and not np.all((arr == 0) | (arr == 1)):
        raise InvalidInputError(
            f"{name} must hold per-example correctness, 1 (right) or 0 (wrong); got "
            f"{arr[(arr != 0) & (arr != 1)][0]:g}."
        )
    return arr.astype(bool)


def _probabilities(p, name: str) -> np.ndarray:
    arr = as_float_array(p, name)
    if arr.size and (arr.min() < 0 or arr.max() > 1):
        raise InvalidInputError(f"{name} must hold probabilities in [0, 1].")
    return arr


# Rows of a batch computed at once: bounds the (rows, N + 1) pmf at a few hundred MB.
_CELLS_PER_BLOCK = 2_000_000


def context_posterior(p, *, beta_prior: float = 1.0):
    """P(A better in W), P(B better in W) and the pmf of the wins, for a batch of experiments.

    The one kernel behind :func:`poisson_binomial_test`, :func:`pairwise_poisson_binomial_test`
    and the simulation studies (Lacoste et al. 2012, §5, eq. 5): each row's numbers do not
    depend on how many rows are computed with it (the method is chosen from N alone and the
    sums run along each row), so a batch equals a loop over single rows bit for bit.

    Parameters
    ----------
    p : ndarray, shape (B, N)
        Per data set, P(A better than B on that data set) (Theorem 4.1), for B experiments.
    beta_prior : float
        beta > 0 of the Beta(beta, beta) prior on r.

    Returns
    -------
    p_right, p_left : ndarray, shape (B,)
        P(r > 1/2) (A better in the context) and P(r < 1/2) (B better).
    pmf : ndarray, shape (B, N + 1)
        Poisson-binomial pmf of the number of data sets A wins.
    """
    n = p.shape[-1]
    # The O(N^2) recursion keeps tail precision; the convolution only for very many data sets.
    method = batch_method(n)
    kappa = np.arange(n + 1)
    # P(r > 1/2 | kappa) and P(r < 1/2 | kappa) for r ~ Beta(kappa + beta, N - kappa + beta),
    # both evaluated as lower tails so that small values keep their precision.
    above = special.betainc(n - kappa + beta_prior, kappa + beta_prior, 0.5)
    below = special.betainc(kappa + beta_prior, n - kappa + beta_prior, 0.5)
    pmf = np.empty((p.shape[0], n + 1))
    block = max(1, _CELLS_PER_BLOCK // (n + 1))
    for lo in range(0, p.shape[0], block):
        pmf[lo:lo + block] = poisson_binomial_pmf(p[lo:lo + block], method=method)
    # Row sums, not a matrix product: BLAS rounds a (B, N) @ (N,) product differently for
    # different B, and the simulations rank confidences that tie to the last bit.
    return (pmf * above).sum(axis=-1), (pmf * below).sum(axis=-1), pmf


def _test_from_probabilities(p: np.ndarray, beta_prior: float, threshold: float,
                             details: dict) -> BayesianResult:
    n = p.size
    p_right, p_left, pmf = context_posterior(p[None, :], beta_prior=beta_prior)
    p_right, p_left, pmf = float(p_right[0]), float(p_left[0]), pmf[0]
    kappa = np.arange(n + 1)
    posterior = BetaMixture(pmf, kappa + beta_prior, n - kappa + beta_prior)
    details = dict(details, n_data_sets=n, p_data_sets=p, wins_pmf=pmf,
                   expected_wins=float(p.sum()), beta_prior=beta_prior)
    return BayesianResult(
        method=METHOD, parameter=PARAMETER, p_left=p_left, p_rope=0.0, p_right=p_right,
        rope=(0.5, 0.5), a_better_side="right", threshold=threshold,
        decision=decide(p_left, 0.0, p_right, a_better_side="right",
                        threshold=threshold), posterior_mean=posterior.mean(),
        credible_interval_95=posterior.interval(0.95), details=details, posterior=posterior)


def poisson_binomial_test(a, b=None, *, kind: str = "discordant", prior: float = 1.0,
                          beta_prior: float = 1.0, threshold: float = 0.95) -> BayesianResult:
    """Poisson-binomial test: probability that A is better than B in the context of the data sets.

    Parameters
    ----------
    a, b
        What they hold depends on ``kind``:

        ``"discordant"`` (default)
            Two arrays of q counts: ``a[i]`` = examples of data set i that A gets wrong and
            B gets right, ``b[i]`` = examples B gets wrong and A gets right (Lacoste's k_h,
            k_g; McNemar's n01, n10).
        ``"correct"``
            Two sequences of q per-example correctness arrays (1 = right, 0 = wrong), ``a[i]``
            and ``b[i]`` on the same test examples of data set i; lengths may differ between
            data sets.
        ``"probability"``
            ``a``: q probabilities that A is better than B on each data set, from any
            single-data-set analysis (e.g. a Bayesian McNemar test); ``b`` must be None.
    kind : {"discordant", "correct", "probability"}
    prior : float
        alpha~ > 0 of the Dirichlet prior of Theorem 4.1 (§4.1; 1 = uniform). Not used with
        ``kind="probability"``.
    beta_prior : float
        beta > 0 of the Beta(beta, beta) prior on r (§5; 1 = uniform, the paper's choice).
    threshold : float
        Decision threshold (Williams 2026 §5.2); Lacoste §7 found 0.85 gives fewer type I
        errors than the sign and Wilcoxon tests at 0.90.

    Returns
    -------
    BayesianResult
        ``p_right`` = Pr(A better than B in the context) = P(r > 1/2), ``p_left`` = P(r < 1/2)
        (B better), ``p_rope`` = 0 (no ROPE: ``rope = (0.5, 0.5)``), ``a_better_side =
        "right"``; ``posterior`` the :class:`~outperform.bayes.BetaMixture` of r with its
        mean and 95% interval;
        ``details``: ``p_data_sets`` (per-data-set Pr(A better)), ``wins_pmf`` (Poisson-binomial
        pmf of the number of data sets A wins), ``expected_wins``, the counts when given.

    Raises
    ------
    InvalidInputError
        Bad counts or correctness values, unpaired data sets, probabilities outside [0, 1],
        non-positive priors, ``b`` given with ``kind="probability"``.
    TooFewError
        No data set.

    References
    ----------
    Lacoste, Laviolette & Marchand (2012), AISTATS, §4 (Theorem 4.1), §5 (eq. 5).

    Examples
    --------
    Five data sets; on each, the examples only A misclassifies and those only B does:

    >>> res = poisson_binomial_test([3, 10, 4, 0, 12], [9, 14, 4, 0, 30])
    >>> res.details["p_data_sets"].round(3)
    array([0.954, 0.788, 0.5  , 0.5  , 0.997])
    >>> round(res.p_right, 4), round(res.p_left, 4), res.decision
    (0.7978, 0.2022, 'undecided')
    >>> round(poisson_binomial_test([9, 14, 4, 0, 30], [3, 10, 4, 0, 12]).p_right, 4)
    0.2022
    """
    check_choice(kind, "kind", KINDS)
    beta_prior = _check_positive(beta_prior, "beta_prior")
    check_threshold(threshold)
    details: dict = {"kind": kind}
    if kind == "probability":
        if b is not None:
            raise InvalidInputError(
                "with kind='probability', pass the per-data-set P(A better) as a and leave b "
                "as None."
            )
        p = _probabilities(a, "a")
        if p.ndim != 1:
            raise InvalidInputError(f"a must be one probability per data set, got shape {p.shape}.")
    else:
        if b is None:
            raise InvalidInputError(f"kind={kind!r} needs both a and b.")
        prior = _check_positive(prior, "prior")
        if kind == "correct":
            k_a, k_b = _discordance_from_correct(a, b)
        else:
            k_a, k_b = as_counts(a, "a"), as_counts(b, "b")
            if k_a.ndim != 1:
                raise InvalidInputError(f"a must be one count per data set, got shape {k_a.shape}.")
        p = task_probability_a_better(k_a, k_b, prior=prior)
        details.update(errors_a_only=k_a, errors_b_only=k_b, prior=prior)
    if p.size == 0:
        raise TooFewError("no data set: the Poisson-binomial test needs at least one.")
    return _test_from_probabilities(p, beta_prior, threshold, details)


def _check_stacked_tables(arr: np.ndarray, kind: str, layout: str) -> None:
    if arr.ndim != 3 or arr.shape[1] != arr.shape[2]:
        raise InvalidInputError(
            f"with kind={kind!r}, data must be (q, k, k) {layout}, got shape {arr.shape}.")


def _pairwise_probabilities(data, kind: str, prior: float) -> tuple[np.ndarray, int]:
    """Per data set, P(i better than j): array (q, k, k)."""
    if kind == "probability":
        p = _probabilities(data, "data")
        _check_stacked_tables(p, kind, "with data[d, i, j] = P(i better than j on data set d)")
        off = ~np.eye(p.shape[1], dtype=bool)
        if p.size and np.max(np.abs((p + p.transpose(0, 2, 1))[:, off] - 1)) > 1e-9:
            raise InvalidInputError(
                "data[d, i, j] + data[d, j, i] must be 1: P(i better than j) and P(j better "
                "than i) are complementary."
            )
        return p, p.shape[1]
    if kind == "discordant":
        counts = as_counts(data, "data")
        _check_stacked_tables(counts, kind, "counts with data[d, i, j] = examples of data set d "
                              "that model i gets wrong and model j right")
    else:
        if isinstance(data, np.ndarray) and data.ndim == 3:
            data = list(data)
        mats = [_correctness(x, f"data[{d}]", ndim=2) for d, x in enumerate(data)]
        if len({m.shape[0] for m in mats}) > 1:
            raise InvalidInputError("every data set must have the same number of models (rows).")
        # counts[d, i, j] = #(i wrong and j right) = (1 - C_i) . C_j
        counts = np.stack([(~m).astype(np.int64) @ m.T.astype(np.int64) for m in mats]) \
            if mats else np.zeros((0, 0, 0), dtype=np.int64)
    p = task_probability_a_better(counts, counts.transpose(0, 2, 1), prior=prior)
    return p, counts.shape[1]


def pairwise_poisson_binomial_test(data, *, kind: str = "correct",
                                   names: Sequence[str] | None = None, prior: float = 1.0,
                                   beta_prior: float = 1.0, threshold: float = 0.95,
                                   cycle_threshold: float = 0.5) -> PairwiseResult:
    """Poisson-binomial test for every pair of k models: the table P(row better than column).

    Parameters
    ----------
    data
        Depends on ``kind``:

        ``"correct"`` (default)
            A sequence of q arrays, one per data set, each (k, n_examples) of per-example
            correctness (1 = right), rows the models in the same order (the layout of
            ``outperform.stats._leaderboard``).
        ``"discordant"``
            Counts (q, k, k): ``data[d, i, j]`` = examples of data set d that model i gets
            wrong and model j gets right.
        ``"probability"``
            (q, k, k): ``data[d, i, j]`` = P(model i better than model j on data set d),
            with ``data[d, j, i] = 1 - data[d, i, j]``.
    kind : {"correct", "discordant", "probability"}
    names : sequence of str, optional
    prior, beta_prior : float
        Priors alpha~ (Theorem 4.1) and beta (§5), as in :func:`poisson_binomial_test`.
    threshold : float
        Decision threshold for each pair.
    cycle_threshold : float
        "i beats j" for the cycle search when P(i better than j) > ``cycle_threshold``
        (0.5: the more probable direction).

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` = P(model i better than model j in the context) (Lacoste Table 2
        layout, diagonal NaN); ``details``: ``p_rope`` (zeros), ``decision`` (k x k,
        "A better" meaning the row model), ``cycles`` (lists of names, see
        :func:`find_cycles`), ``expected_wins[i, j]``. No p-values: ``pvalue`` is NaN and
        ``adjustment="none"``.

    Raises
    ------
    InvalidInputError
        Bad shapes, counts, correctness values, probabilities, names or priors.
    TooFewError
        Fewer than 2 models or no data set.

    Examples
    --------
    Lacoste et al. (2012) Figure 2: true risks of A, B, C on data sets a, b, c, so each
    per-data-set comparison is certain:

    >>> risk = np.array([[0.1, 0.2, 0.3], [0.3, 0.1, 0.2], [0.2, 0.3, 0.1]])
    >>> p = (risk[:, :, None] < risk[:, None, :]) + 0.5 * (risk[:, :, None] == risk[:, None, :])
    >>> res = pairwise_poisson_binomial_test(p, kind="probability", names=["A", "B", "C"])
    >>> res.statistic.round(4)
    array([[   nan, 0.6875, 0.3125],
           [0.3125,    nan, 0.6875],
           [0.6875, 0.3125,    nan]])
    >>> res.details["cycles"]
    [['A', 'B', 'C']]
    """
    check_choice(kind, "kind", KINDS)
    prior = _check_positive(prior, "prior")
    beta_prior = _check_positive(beta_prior, "beta_prior")
    check_threshold(threshold)
    check_probability(cycle_threshold, "cycle_threshold")
    p, k = _pairwise_probabilities(data, kind, prior)
    if k < 2:
        raise TooFewError(f"pairwise comparison needs at least 2 models, got {k}.")
    if p.shape[0] == 0:
        raise TooFewError("no data set: the Poisson-binomial test needs at least one.")
    labels = model_names(names, k)
    iu, ju = np.triu_indices(k, 1)
    # All pairs at once: one batch of Poisson-binomial distributions over the q data sets.
    p_right, p_left, _ = context_posterior(p[:, iu, ju].T, beta_prior=beta_prior)
    better = np.zeros((k, k))
    better[iu, ju], better[ju, iu] = p_right, p_left
    wins = p.sum(axis=0)
    np.fill_diagonal(wins, np.nan)
    details = {"kind": kind, "n_data_sets": int(p.shape[0]), "expected_wins": wins,
               "prior": prior, "beta_prior": beta_prior}
    return bayesian_pairwise_result(f"{METHOD}, all pairs", labels, better, np.zeros((k, k)),
                                    threshold, cycle_threshold, details)
