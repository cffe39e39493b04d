"""Synthetic contexts of Lacoste, Laviolette & Marchand (2012, §6): whole experiments on demand.

Comparing the classifiers h = A(S) and g = B(S) on a test set of n examples gives three
counts (Lacoste §4): k_h examples that only h gets wrong, k_g examples that only g gets wrong,
and the n - k_h - k_g others, a multinomial draw with probabilities (p_h, p_g, p_bar). A
*synthetic context* is a distribution over (p_h, p_g, p_bar) together with the test-set size
n; each data set of an experiment draws its own parameters from it.

A is better than B in the context W when q = P_W(p_h < p_g) > 1/2 (Lacoste eq. 1-2: h has
the lower risk exactly when p_h < p_g). For a Dirichlet(alpha_h, alpha_g, alpha_bar) the
ratio p_h / (p_h + p_g) is Beta(alpha_h, alpha_g), so q = I_{1/2}(alpha_h, alpha_g), and a
mixture averages that over its components.

The contexts of the paper:

* :func:`single_dirichlet_context`: Dirichlet(100, 110, 790), n = 1001 (§6.4, Figure 3).
* :func:`multiple_dirichlet_context`: the uniform mixture of the 22 Dirichlets of Table 5
  (svm against Parzen windows on 22 UCI and MNIST data sets), n = 1001 (Figures 4 and 5).
* :func:`bimodal_context`: Dirichlet(100, 140, 9760) with probability 2/3, otherwise
  Dirichlet(1400, 1000, 7600), n = 100001 (§6.4), where A is better on most data sets but
  by less than it loses on the others.

Any other mixture of Dirichlets is a :class:`DirichletContext`; any sampler of the three
probabilities is a :class:`CustomContext`.
"""
from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable

import numpy as np
from scipy import special

from .._cost import check_cost
from .._validation import (DegenerateDataError, InvalidInputError, as_float_array, check_random_state)
from ._common import check_int, check_int_grid

__all__ = [
    "BIMODAL_DIRICHLETS",
    "BIMODAL_WEIGHTS",
    "CustomContext",
    "DirichletContext",
    "Experiments",
    "LACOSTE_TABLE5",
    "SINGLE_DIRICHLET",
    "SyntheticContext",
    "bimodal_context",
    "multiple_dirichlet_context",
    "sample_experiments",
    "single_dirichlet_context",
]

#: Dirichlet parameters (alpha_h, alpha_g, alpha_bar) of the single context of §6.4.
SINGLE_DIRICHLET = (100, 110, 790)

#: The two components of the bimodal context of §6.4 and their probabilities.
BIMODAL_DIRICHLETS = ((100, 140, 9760), (1400, 1000, 7600))
BIMODAL_WEIGHTS = (2 / 3, 1 / 3)

#: Lacoste et al. (2012), appendix §9.1, Table 5: the 22 Dirichlet parameters
#: (k_h + 1, k_g + 1, n - k_h - k_g + 1) of the multiple-Dirichlet context, i.e. the
#: posteriors under a uniform prior of the counts of svm (h) against Parzen windows (g) on
#: the 22 data sets. Typed in from the paper, in its row order; both text extractions in
#: papers/ agree on every value.
LACOSTE_TABLE5 = np.array([
    [11, 14, 1223],
    [12, 20, 1232],
    [10, 16, 4078],
    [13, 15, 1228],
    [31, 17, 320],
    [22, 22, 148],
    [27, 35, 154],
    [14, 18, 112],
    [17, 25, 286],
    [24, 17, 151],
    [149, 240, 5555],
    [16, 30, 762],
    [19, 14, 791],
    [11, 16, 237],
    [79, 127, 3834],
    [15, 20, 1213],
    [10, 11, 803],
    [15, 15, 122],
    [11, 29, 176],
    [14, 18, 352],
    [46, 64, 410],
    [31, 1019, 2694],
])

# |q - 1/2| below this is "neither algorithm is better": there is no right answer.
_TIE_TOLERANCE = 1e-12


@dataclasses.dataclass(frozen=True)
class Experiments:
    """Simulated experiments: M repetitions of comparing A and B on N data sets.

    Attributes
    ----------
    errors_a_only : ndarray of int, shape (M, N)
        k_h: test examples of each data set that A's classifier gets wrong and B's right.
    errors_b_only : ndarray of int, shape (M, N)
        k_g: the examples only B's classifier gets wrong.
    n_test : ndarray of int, shape (M, N)
        Test-set size of each data set.
    prob_a_better : ndarray, shape (M,)
        q = P(A's classifier is better on a data set drawn from the context) for each
        repetition (1 - q where A and B were swapped).
    swapped : ndarray of bool, shape (M,)
        Repetitions in which the roles of A and B were exchanged (Lacoste §6.3).
    """

    errors_a_only: np.ndarray
    errors_b_only: np.ndarray
    n_test: np.ndarray
    prob_a_better: np.ndarray
    swapped: np.ndarray

    @property
    def n_repetitions(self) -> int:
        """M, the number of simulated experiments."""
        return self.errors_a_only.shape[0]

    @property
    def n_data_sets(self) -> int:
        """N, the number of data sets per experiment."""
        return self.errors_a_only.shape[1]

    @property
    def a_better(self) -> np.ndarray:
        """The true answer of each repetition: True where A is better in the context (q > 1/2).

        Raises
        ------
        DegenerateDataError
            The context has q = 1/2: neither algorithm is better, so there is no true answer.
        """
        if np.any(np.abs(self.prob_a_better - 0.5) <= _TIE_TOLERANCE):
            raise DegenerateDataError(
                "in this context P(A better on a data set) = 1/2: neither algorithm is better "
                "(Lacoste eq. 2), so there is no true answer to score a test against."
            )
        return self.prob_a_better > 0.5


class SyntheticContext(abc.ABC):
    """A distribution over the multinomial parameters (p_h, p_g, p_bar) and test-set sizes.

    Subclasses define :meth:`sample_parameters` and :attr:`prob_a_better`; ``n_test`` holds
    the possible test-set sizes, drawn uniformly for each data set (one size: fixed n).
    """

    name: str
    n_test: tuple[int, ...]

    @abc.abstractmethod
    def sample_parameters(self, shape, rng: np.random.Generator) -> np.ndarray:
        """Draw (p_h, p_g, p_bar) for ``shape`` data sets: an array of shape ``shape + (3,)``."""

    @property
    @abc.abstractmethod
    def prob_a_better(self) -> float:
        """q = P(p_h < p_g): the probability that A's classifier is better on a drawn data set."""

    def with_test_size(self, n_test) -> SyntheticContext:
        """The same context with other test-set sizes (e.g. for Lacoste Figure 5)."""
        return dataclasses.replace(self, n_test=n_test)

    def sample(self, n_data_sets: int, n_repetitions: int, *, swap: bool = True,
               random_state=0) -> Experiments:
        """Simulate experiments; see :func:`sample_experiments`."""
        return sample_experiments(self, n_data_sets, n_repetitions, swap=swap,
                                  random_state=random_state)


def _test_sizes(n_test) -> tuple[int, ...]:
    return check_int_grid(n_test, "n_test", minimum=1)


@dataclasses.dataclass(frozen=True)
class DirichletContext(SyntheticContext):
    """Mixture of Dirichlet distributions over (p_h, p_g, p_bar) (Lacoste §6.4).

    Parameters
    ----------
    alphas : array_like, shape (3,) or (J, 3)
        Dirichlet parameters (alpha_h, alpha_g, alpha_bar) of each component, all > 0.
    weights : array_like, shape (J,), optional
        Component probabilities (normalised); default uniform.
    n_test : int or sequence of int
        Test-set size, or the sizes to draw uniformly for each data set.
    name : str

    Raises
    ------
    InvalidInputError
        Non-positive parameters, weights that are negative, of the wrong length or sum to 0,
        test-set sizes below 1.

    Examples
    --------
    >>> ctx = DirichletContext([100, 110, 790], n_test=1001)
    >>> round(ctx.prob_a_better, 4)
    0.7554
    >>> ctx.sample_parameters((2,), np.random.default_rng(0)).shape
    (2, 3)
    """

    alphas: np.ndarray
    weights: np.ndarray | None = None
    n_test: tuple[int, ...] | int = 1001
    name: str = "Dirichlet mixture"

    def __post_init__(self):
        alphas = np.atleast_2d(as_float_array(self.alphas, "alphas"))
        if alphas.ndim != 2 or alphas.shape[1] != 3 or alphas.shape[0] == 0:
            raise InvalidInputError(
                f"alphas must be (alpha_h, alpha_g, alpha_bar) or a (J, 3) array of them, got "
                f"shape {np.shape(self.alphas)}."
            )
        if np.any(alphas <= 0):
            raise InvalidInputError("Dirichlet parameters (alphas) must all be > 0.")
        if self.weights is None:
            weights = np.full(alphas.shape[0], 1 / alphas.shape[0])
        else:
            weights = np.atleast_1d(as_float_array(self.weights, "weights"))
            if weights.shape != (alphas.shape[0],) or np.any(weights < 0) or weights.sum() <= 0:
                raise InvalidInputError(
                    f"weights must be {alphas.shape[0]} non-negative numbers (one per "
                    f"component) with a positive sum, got {self.weights!r}."
                )
            weights = weights / weights.sum()
        object.__setattr__(self, "alphas", alphas)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "n_test", _test_sizes(self.n_test))

    def sample_parameters(self, shape, rng: np.random.Generator) -> np.ndarray:
        shape = tuple(np.atleast_1d(shape).astype(int))
        component = rng.choice(self.weights.size, size=shape, p=self.weights)
        # A Dirichlet draw is a vector of independent Gammas divided by their sum; drawing
        # the Gammas directly lets every data set use its own component's parameters.
        gammas = rng.standard_gamma(self.alphas[component])
        return gammas / gammas.sum(axis=-1, keepdims=True)

    @property
    def prob_a_better(self) -> float:
        # p_h / (p_h + p_g) ~ Beta(alpha_h, alpha_g) in each component.
        return float(self.weights @ special.betainc(self.alphas[:, 0], self.alphas[:, 1], 0.5))


@dataclasses.dataclass(frozen=True)
class CustomContext(SyntheticContext):
    """A user-defined context: any sampler of the probabilities (p_h, p_g, p_bar).

    Parameters
    ----------
    sampler : callable
        ``sampler(shape, rng) -> ndarray of shape shape + (3,)``: one (p_h, p_g, p_bar) per
        data set, non-negative, summing to 1; ``rng`` is a numpy Generator.
    n_test : int or sequence of int
        Test-set size, or the sizes to draw uniformly for each data set.
    prob_a_better : float, optional
        q = P(p_h < p_g) if known; otherwise estimated from ``n_monte_carlo`` draws (with
        Monte Carlo error about 0.5 / sqrt(n_monte_carlo)).
    name : str
    n_monte_carlo : int
    random_state : seed for the estimate of q.

    Raises
    ------
    InvalidInputError
        A sampler that returns the wrong shape or invalid probabilities, q outside [0, 1].

    Examples
    --------
    A context where A's classifier makes 1% fewer exclusive errors on every data set:

    >>> def sampler(shape, rng):
    ...     p_g = rng.uniform(0.02, 0.1, shape)
    ...     return np.stack([p_g - 0.01, p_g, 1.01 - 2 * p_g], axis=-1)
    >>> ctx = CustomContext(sampler, n_test=500)
    >>> ctx.prob_a_better
    1.0
    """

    sampler: Callable
    n_test: tuple[int, ...] | int = 1001
    prob_a_better: float | None = None
    name: str = "custom"
    n_monte_carlo: int = 10**6
    random_state: object = 0

    def __post_init__(self):
        if not callable(self.sampler):
            raise InvalidInputError("sampler must be a function sampler(shape, rng).")
        object.__setattr__(self, "n_test", _test_sizes(self.n_test))
        q = self.prob_a_better
        if q is None:
            check_int(self.n_monte_carlo, "n_monte_carlo")
            p = self.sample_parameters((self.n_monte_carlo,), check_random_state(self.random_state))
            q = float(np.mean(p[:, 0] < p[:, 1]))
        elif not 0 <= q <= 1:
            raise InvalidInputError(f"prob_a_better must lie in [0, 1], got {q!r}.")
        object.__setattr__(self, "prob_a_better", float(q))

    def sample_parameters(self, shape, rng: np.random.Generator) -> np.ndarray:
        shape = tuple(np.atleast_1d(shape).astype(int))
        p = np.asarray(self.sampler(shape, rng), dtype=float)
        if p.shape != shape + (3,):
            raise InvalidInputError(
                f"the sampler must return an array of shape {shape + (3,)} (p_h, p_g, p_bar "
                f"for each data set), got {p.shape}."
            )
        if not (np.all(np.isfinite(p)) and np.all(p >= 0)
                and np.allclose(p.sum(axis=-1), 1.0, atol=1e-9)):
            raise InvalidInputError(
                "the sampler must return non-negative probabilities (p_h, p_g, p_bar) that "
                "sum to 1 for each data set."
            )
        return p


def single_dirichlet_context(*, n_test=1001) -> DirichletContext:
    """Lacoste §6.4 single context: Dirichlet(100, 110, 790), n = 1001 (Figure 3).

    Examples
    --------
    >>> ctx = single_dirichlet_context()
    >>> ctx.n_test, round(ctx.prob_a_better, 3)
    ((1001,), 0.755)
    """
    return DirichletContext(SINGLE_DIRICHLET, n_test=n_test, name="single Dirichlet")


def multiple_dirichlet_context(*, n_test=1001) -> DirichletContext:
    """Lacoste §6.4: uniform mixture of the 22 Dirichlets of Table 5 (Figures 4 and 5).

    Examples
    --------
    >>> ctx = multiple_dirichlet_context()
    >>> ctx.alphas.shape, round(ctx.prob_a_better, 3)
    ((22, 3), 0.726)
    """
    return DirichletContext(LACOSTE_TABLE5, n_test=n_test, name="multiple Dirichlet")


def bimodal_context(*, n_test=100001) -> DirichletContext:
    """Lacoste §6.4 bimodal context: a non-symmetric distribution of risk differences.

    With probability 2/3, Dirichlet(100, 140, 9760) (A better by 0.4 points); otherwise
    Dirichlet(1400, 1000, 7600) (A worse by 4 points). A is better on about two thirds of
    the data sets, so better in the context, though the mean difference favours B.

    Examples
    --------
    >>> ctx = bimodal_context()
    >>> ctx.n_test, round(ctx.prob_a_better, 3)
    ((100001,), 0.663)
    """
    return DirichletContext(BIMODAL_DIRICHLETS, BIMODAL_WEIGHTS, n_test=n_test, name="bimodal")


def sample_experiments(context: SyntheticContext, n_data_sets: int, n_repetitions: int, *,
                       swap: bool = True, random_state=0) -> Experiments:
    """Simulate M experiments comparing A and B on N data sets drawn from a context.

    Each data set draws (p_h, p_g, p_bar) from the context and a test-set size n from
    ``context.n_test``, then the counts (k_h, k_g, n - k_h - k_g) from the multinomial
    (as k_h ~ Binomial(n, p_h), k_g | k_h ~ Binomial(n - k_h, p_g / (1 - p_h))). All
    arrays are drawn at once (no loop over repetitions or data sets).

    Parameters
    ----------
    context : SyntheticContext
    n_data_sets : int
        N >= 1 data sets per experiment.
    n_repetitions : int
        M >= 1 experiments.
    swap : bool
        Exchange A and B in a random half of the repetitions (the true answer follows), as
        Lacoste §6.3 does so that no test gains from a bias towards one side.
    random_state : None, int, SeedSequence or Generator

    Returns
    -------
    Experiments

    Raises
    ------
    InvalidInputError
        Non-integer or non-positive sizes, a context that is not a SyntheticContext, sizes
        whose arrays would not fit in memory (:func:`outperform._validation.check_cost`).

    Examples
    --------
    >>> exp = sample_experiments(single_dirichlet_context(), 5, 3, random_state=1)
    >>> exp.errors_a_only.shape, int(exp.n_test[0, 0])
    ((3, 5), 1001)
    >>> bool(np.all(exp.errors_a_only + exp.errors_b_only <= exp.n_test))
    True
    """
    if not isinstance(context, SyntheticContext):
        raise InvalidInputError(
            f"context must be a SyntheticContext (e.g. single_dirichlet_context()), got "
            f"{type(context).__name__}."
        )
    n, m = check_int(n_data_sets, "n_data_sets"), check_int(n_repetitions, "n_repetitions")
    # ~100 bytes per (repetition, data set): parameters, sizes, counts and their copies; two
    # binomial draws of at least ~15 ns each
    check_cost("n_repetitions", m, work=f"{n:,} data sets per experiment",
               bytes_per_unit=100 * n, seconds_per_unit=3e-8 * n)
    rng = check_random_state(random_state)
    p = context.sample_parameters((m, n), rng)
    sizes = np.asarray(context.n_test, dtype=np.int64)
    n_test = np.broadcast_to(sizes[0], (m, n)).copy() if sizes.size == 1 else rng.choice(
        sizes, size=(m, n))
    k_h = rng.binomial(n_test, p[..., 0])
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(p[..., 0] < 1, p[..., 1] / (1 - p[..., 0]), 0.0)
    k_g = rng.binomial(n_test - k_h, np.clip(ratio, 0.0, 1.0))
    swapped = rng.random(m) < 0.5 if swap else np.zeros(m, dtype=bool)
    k_a = np.where(swapped[:, None], k_g, k_h)
    k_b = np.where(swapped[:, None], k_h, k_g)
    q = context.prob_a_better
    return Experiments(errors_a_only=k_a, errors_b_only=k_b, n_test=n_test,
                       prob_a_better=np.where(swapped, 1 - q, q), swapped=swapped)
