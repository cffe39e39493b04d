"""Paired resampling designs: the same train/test splits for every model.

A design turns a data set ``(X, y)`` into a sequence of ``(run, fold, train_idx, test_idx)``
with scikit-learn's splitters. The splits depend only on the number of examples, on ``y``
(when stratified) and on ``random_state``, never on the model, so every model compared on a
data set sees exactly the same training and test sets: the pairing the Q2 tests assume
(Nadeau & Bengio 2003; Dietterich 1998; Corani & Benavoli 2015 §2).

``random_state`` is always an int so that it can be written next to the results and the
experiment repeated or resumed.
"""
from __future__ import annotations

import re
from numbers import Integral, Real
from typing import Iterator

import numpy as np
from sklearn.model_selection import (
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedShuffleSplit,
)
from sklearn.utils.multiclass import type_of_target

from .._validation import InvalidInputError, TooFewError

_UNSTRATIFIED = " unstratified"


def _check_int(value, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise InvalidInputError(f"{name} must be an integer, got {value!r}.")
    if value < minimum:
        raise TooFewError(f"{name} must be at least {minimum}, got {value}.")
    return int(value)


def _check_random_state(random_state) -> int:
    # An int can be recorded with the results; a RandomState object cannot.
    if random_state is None:
        return int(np.random.default_rng().integers(2**31 - 1))
    if isinstance(random_state, bool) or not isinstance(random_state, Integral):
        raise InvalidInputError(
            f"random_state must be an int (or None to draw one), got {random_state!r}; the "
            "design records it with the results so that the splits can be reproduced."
        )
    if not 0 <= random_state < 2**32:
        raise InvalidInputError(f"random_state must lie in [0, 2**32), got {random_state}.")
    return int(random_state)


class Design:
    """Base class of the paired designs; subclasses set ``_splitter`` and the sizes.

    Attributes
    ----------
    n_runs : int
        Number of repetitions (``run`` takes the values ``0 .. n_runs - 1``).
    n_folds : int
        Number of test folds per run (``fold`` takes ``0 .. n_folds - 1``; 1 for holdout).
    stratified : bool
        Whether the splits keep the class proportions of ``y``.
    random_state : int
        Seed of the splitter, recorded with the results.
    """

    n_runs: int
    n_folds: int
    stratified: bool
    random_state: int

    @property
    def spec(self) -> str:
        """Short string that :func:`parse_design` reads back into an equal design."""
        raise NotImplementedError

    @property
    def name(self) -> str:
        """``spec`` plus ``" unstratified"`` when the splits are not stratified."""
        return self.spec + ("" if self.stratified else _UNSTRATIFIED)

    def _splitter(self):
        raise NotImplementedError

    def split(self, X, y) -> Iterator[tuple[int, int, np.ndarray, np.ndarray]]:
        """Yield ``(run, fold, train_idx, test_idx)`` for the data set ``(X, y)``.

        Parameters
        ----------
        X : array_like or DataFrame, shape (n_examples, n_features)
            Only its length is used.
        y : array_like, shape (n_examples,)
            Class labels; used to stratify when ``stratified`` is true.

        Yields
        ------
        run, fold : int
        train_idx, test_idx : ndarray of int
            Row positions (0-based) of the training and test examples.

        Raises
        ------
        InvalidInputError
            If a stratified design gets a non-class target, or the data set is too small for
            the design (e.g. fewer examples of every class than folds).
        """
        y = np.asarray(y)
        if self.stratified and type_of_target(y) not in ("binary", "multiclass"):
            raise InvalidInputError(
                f"a stratified design needs class labels, got a {type_of_target(y)!r} target; "
                "pass stratified=False (or the 'unstratified' suffix) for other targets."
            )
        try:
            for i, (train, test) in enumerate(self._splitter().split(np.zeros(len(y)), y)):
                yield i // self.n_folds, i % self.n_folds, train, test
        except ValueError as exc:
            raise InvalidInputError(
                f"design {self.name!r} cannot split {len(y)} examples: {exc}"
            ) from None

    def to_dict(self) -> dict:
        """JSON-safe description: name, runs, folds, stratified, random_state."""
        return {"design": self.name, "n_runs": self.n_runs, "n_folds": self.n_folds,
                "stratified": self.stratified, "random_state": self.random_state}

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(self.__dict__.items()))))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._repr_args()})"

    def _repr_args(self) -> str:
        return f"stratified={self.stratified!r}, random_state={self.random_state!r}"


class RepeatedKFoldDesign(Design):
    """``n_repeats`` runs of ``n_splits``-fold cross-validation (r × k-fold CV).

    Each run reshuffles and partitions the examples into ``n_splits`` test folds; the
    training set of a fold is the rest. Built on scikit-learn's ``RepeatedStratifiedKFold``
    (or ``RepeatedKFold`` when ``stratified=False``). The correlation between folds that the
    corrected t-tests account for is ρ = n_test / n_total ≈ 1 / n_splits (NOTES.md).

    Parameters
    ----------
    n_repeats : int, default 10
        Number of runs r (≥ 1).
    n_splits : int, default 10
        Number of folds k (≥ 2).
    stratified : bool, default True
        Keep the class proportions in every fold.
    random_state : int or None, default 0
        Seed; ``None`` draws one, which is then stored in ``random_state``.

    Raises
    ------
    InvalidInputError, TooFewError
        Non-integer sizes, ``n_repeats < 1`` or ``n_splits < 2``, non-int ``random_state``.

    Examples
    --------
    >>> d = RepeatedKFoldDesign(2, 3, random_state=0)
    >>> y = [0, 1] * 6
    >>> [(run, fold, len(test)) for run, fold, train, test in d.split(y, y)]
    [(0, 0, 4), (0, 1, 4), (0, 2, 4), (1, 0, 4), (1, 1, 4), (1, 2, 4)]
    >>> d.spec
    '2x3'
    """

    def __init__(self, n_repeats: int = 10, n_splits: int = 10, *, stratified: bool = True,
                 random_state: int | None = 0):
        self.n_runs = _check_int(n_repeats, "n_repeats", 1)
        self.n_folds = _check_int(n_splits, "n_splits", 2)
        self.stratified = bool(stratified)
        self.random_state = _check_random_state(random_state)

    @property
    def spec(self) -> str:
        return f"{self.n_runs}x{self.n_folds}"

    def _repr_args(self) -> str:
        return f"{self.n_runs}, {self.n_folds}, {super()._repr_args()}"

    def _splitter(self):
        cls = RepeatedStratifiedKFold if self.stratified else RepeatedKFold
        return cls(n_splits=self.n_folds, n_repeats=self.n_runs, random_state=self.random_state)


class FiveByTwoDesign(RepeatedKFoldDesign):
    """Dietterich's 5×2 cross-validation: 5 runs of 2-fold CV (Dietterich 1998, §3.5).

    The design of the 5×2cv paired t-test and of Alpaydın's combined 5×2cv F-test. It is a
    :class:`RepeatedKFoldDesign` with ``n_repeats=5, n_splits=2``; its own type lets the Q2
    layer pick those tests. Dietterich's halves are simple random; here they are stratified
    unless ``stratified=False``, which keeps the class balance of both halves.

    Parameters
    ----------
    stratified : bool, default True
    random_state : int or None, default 0

    Examples
    --------
    >>> d = FiveByTwoDesign(random_state=1)
    >>> d.spec, d.n_runs, d.n_folds
    ('5x2', 5, 2)
    """

    def __init__(self, *, stratified: bool = True, random_state: int | None = 0):
        super().__init__(5, 2, stratified=stratified, random_state=random_state)

    def _repr_args(self) -> str:
        return Design._repr_args(self)


class RepeatedHoldoutDesign(Design):
    """``n_repeats`` independent random train/test splits (repeated holdout).

    Built on scikit-learn's ``StratifiedShuffleSplit`` (``ShuffleSplit`` when
    ``stratified=False``). Every run has one fold (``fold == 0``). The corrected resampled
    t-test of Nadeau & Bengio (2003) uses ρ = n_test / (n_train + n_test).

    Parameters
    ----------
    n_repeats : int, default 30
        Number of random splits (≥ 1).
    test_size : float in (0, 1) or int, default 0.2
        Fraction (or number) of examples in each test set.
    stratified : bool, default True
    random_state : int or None, default 0

    Raises
    ------
    InvalidInputError
        ``test_size`` outside (0, 1) as a fraction or below 1 as a count.

    Examples
    --------
    >>> d = RepeatedHoldoutDesign(3, 0.25, random_state=0)
    >>> y = [0, 1] * 10
    >>> [(run, fold, len(train), len(test)) for run, fold, train, test in d.split(y, y)]
    [(0, 0, 15, 5), (1, 0, 15, 5), (2, 0, 15, 5)]
    >>> d.spec
    'holdout:3x0.25'
    """

    def __init__(self, n_repeats: int = 30, test_size: float = 0.2, *, stratified: bool = True,
                 random_state: int | None = 0):
        self.n_runs = _check_int(n_repeats, "n_repeats", 1)
        self.n_folds = 1
        if isinstance(test_size, Integral) and not isinstance(test_size, bool):
            test_size = _check_int(test_size, "test_size", 1)
        elif isinstance(test_size, Real) and 0 < test_size < 1:
            test_size = float(test_size)
        else:
            raise InvalidInputError(
                f"test_size must be a fraction in (0, 1) or a whole number of examples, "
                f"got {test_size!r}."
            )
        self.test_size = test_size
        self.stratified = bool(stratified)
        self.random_state = _check_random_state(random_state)

    @property
    def spec(self) -> str:
        return f"holdout:{self.n_runs}x{self.test_size:g}"

    def _repr_args(self) -> str:
        return f"{self.n_runs}, {self.test_size!r}, {super()._repr_args()}"

    def _splitter(self):
        cls = StratifiedShuffleSplit if self.stratified else ShuffleSplit
        return cls(n_splits=self.n_runs, test_size=self.test_size,
                   random_state=self.random_state)

    def to_dict(self) -> dict:
        return {**super().to_dict(), "test_size": self.test_size}


_KFOLD = re.compile(r"(\d+)\s*x\s*(\d+)")
_HOLDOUT = re.compile(r"holdout\s*:\s*(\d+)\s*x\s*(\d*\.?\d+(?:e-?\d+)?)")


def parse_design(spec, *, stratified: bool = True, random_state: int | None = 0) -> Design:
    """Build a design from a short string, or check and return a :class:`Design`.

    Parameters
    ----------
    spec : str or Design
        ``"RxK"``: R runs of K-fold CV (``"10x10"``); ``"5x2"``: Dietterich's 5×2cv;
        ``"holdout:RxF"``: R random splits with a test fraction F (``"holdout:30x0.2"``) or
        a test count when F is a whole number. A trailing ``" unstratified"`` (as written
        in the ``design`` column of the runner's output) sets ``stratified=False``.
    stratified : bool, default True
    random_state : int or None, default 0
        Ignored when ``spec`` is already a ``Design``.

    Returns
    -------
    Design

    Raises
    ------
    InvalidInputError
        If ``spec`` matches none of the forms above.

    Examples
    --------
    >>> parse_design("10x10")
    RepeatedKFoldDesign(10, 10, stratified=True, random_state=0)
    >>> parse_design("5x2", random_state=3)
    FiveByTwoDesign(stratified=True, random_state=3)
    >>> parse_design("holdout:30x0.2 unstratified").name
    'holdout:30x0.2 unstratified'
    """
    if isinstance(spec, Design):
        return spec
    if not isinstance(spec, str):
        raise InvalidInputError(
            f"design must be a Design or a string such as '10x10', '5x2' or "
            f"'holdout:30x0.2', got {spec!r}."
        )
    text = spec.strip().lower()
    if text.endswith(_UNSTRATIFIED.strip()):
        text, stratified = text[: -len(_UNSTRATIFIED.strip())].strip(), False
    if m := _HOLDOUT.fullmatch(text):
        size = float(m.group(2))
        test_size = int(size) if size >= 1 and size == int(size) else size
        return RepeatedHoldoutDesign(int(m.group(1)), test_size, stratified=stratified,
                                     random_state=random_state)
    if m := _KFOLD.fullmatch(text):
        runs, folds = int(m.group(1)), int(m.group(2))
        if (runs, folds) == (5, 2):
            return FiveByTwoDesign(stratified=stratified, random_state=random_state)
        return RepeatedKFoldDesign(runs, folds, stratified=stratified, random_state=random_state)
    raise InvalidInputError(
        f"cannot read design {spec!r}; use 'RxK' for R runs of K-fold CV (e.g. '10x10'), "
        "'5x2' for Dietterich's 5x2cv, or 'holdout:RxF' for R random splits with test "
        "fraction F (e.g. 'holdout:30x0.2')."
    )
