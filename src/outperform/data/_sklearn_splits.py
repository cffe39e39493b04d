"""The design of scikit-learn's splits: runs, folds and the sizes n_train/n_test that the
corrected resampled t-test needs (Nadeau & Bengio 2003: rho = n_test / (n_train + n_test)),
read from the splitter (see :mod:`outperform.data._sklearn`)."""
from __future__ import annotations

import numpy as np

from .._errors import InvalidInputError


def split_design(cv, n_splits: int, *, n_train=None, n_test=None, n_samples=None,
                 rho=None) -> dict:
    """The design of ``n_splits`` splits: ``run`` and ``fold`` per split, sizes if known.

    Returns a dict with ``run``, ``fold`` (int arrays of length n_splits), ``n_train``,
    ``n_test`` (arrays, or None when the fold structure gives rho = 1/k) and ``design`` (a
    sentence). Raises InvalidInputError, naming ``n_train=``/``n_test=``, when neither the
    splitter nor the sizes tell the design.
    """
    split = np.arange(n_splits)
    if (n_train is None) != (n_test is None):
        raise InvalidInputError("give both n_train= and n_test= (the sizes of a training "
                                "and of a test set), or neither.")
    if n_train is not None:
        sizes = [np.broadcast_to(np.asarray(v, dtype=float), (n_splits,)) for v in
                 (n_train, n_test)]
        return {"run": split, "fold": np.zeros(n_splits, int), "n_train": sizes[0],
                "n_test": sizes[1], "design": f"{n_splits} splits, n_train = "
                f"{_num(sizes[0])}, n_test = {_num(sizes[1])} (given)"}
    kind = type(cv).__name__
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        k = int(cv)
        return _kfold(split, 1, k, f"{k}-fold cross-validation (rho = 1/{k})")
    if hasattr(cv, "n_repeats") and hasattr(cv, "cvargs"):       # Repeated(Stratified)KFold
        k = int(cv.cvargs.get("n_splits", 5))
        return _kfold(split, int(cv.n_repeats), k, f"{cv.n_repeats} × {k}-fold "
                      f"cross-validation ({kind}, rho = 1/{k})")
    if kind.endswith("ShuffleSplit"):
        return _holdouts(cv, split, n_samples, kind)
    if kind in ("KFold", "StratifiedKFold", "GroupKFold", "StratifiedGroupKFold"):
        k = int(cv.n_splits)
        return _kfold(split, 1, k, f"{k}-fold cross-validation ({kind}, rho = 1/{k})")
    if cv is not None and not hasattr(cv, "split") and not isinstance(cv, (str, bytes)):
        pairs = list(cv)        # an iterable of (train, test) index arrays
        if len(pairs) == n_splits:
            train = np.array([len(t) for t, _ in pairs], dtype=float)
            test = np.array([len(t) for _, t in pairs], dtype=float)
            return {"run": split, "fold": np.zeros(n_splits, int), "n_train": train,
                    "n_test": test, "design": f"{n_splits} given splits, n_train = "
                    f"{_num(train)}, n_test = {_num(test)}"}
    if rho is not None:
        return {"run": split, "fold": np.zeros(n_splits, int), "n_train": None,
                "n_test": None, "design": f"{n_splits} splits, rho = {rho:g} (given)"}
    what = ("no splitter is known (a cv_results_ or cross_validate dict does not record it)"
            if cv is None else f"the design of a {kind} is not read")
    raise InvalidInputError(
        f"{what}, so the correlation of the corrected t-test between the {n_splits} splits is "
        "unknown: pass n_train= and n_test= (the sizes of a training and a test set, "
        "--n-train/--n-test), or the splitter with cv= to outperform.data.read_sklearn "
        "(e.g. cv=RepeatedStratifiedKFold(n_splits=10, n_repeats=10)).")


def _kfold(split, repeats: int, k: int, design: str) -> dict:
    if repeats * k != split.size:
        raise InvalidInputError(f"the splitter makes {repeats} × {k} = {repeats * k} splits "
                                f"but the results hold {split.size}: pass the cv the scores "
                                "came from, or n_train= and n_test=.")
    return {"run": split // k, "fold": split % k, "n_train": None, "n_test": None,
            "design": design}


def _holdouts(cv, split, n_samples, kind) -> dict:
    test, train = cv.test_size, cv.train_size
    if test is None and train is None:
        test = getattr(cv, "_default_test_size", 0.1)
    fractions = any(isinstance(v, float) for v in (test, train))
    if fractions and n_samples is None:
        raise InvalidInputError(
            f"a {kind} with test_size={test!r}, train_size={train!r} gives sizes only with "
            "the number of examples: pass X= or n_samples= to outperform.data.read_sklearn, "
            "or n_train= and n_test= (--n-train/--n-test).")
    n = n_samples
    # scikit-learn's rule (model_selection._split._validate_shuffle_split)
    n_te = (int(np.ceil(test * n)) if isinstance(test, float) else test)
    n_tr = (int(np.floor(train * n)) if isinstance(train, float) else train)
    n_te = n - n_tr if n_te is None else n_te
    n_tr = n - n_te if n_tr is None else n_tr
    sizes = np.full(split.size, float(n_tr)), np.full(split.size, float(n_te))
    return {"run": split, "fold": np.zeros(split.size, int), "n_train": sizes[0],
            "n_test": sizes[1], "design": f"{split.size} random holdouts ({kind}), n_train = "
            f"{n_tr}, n_test = {n_te}"}


def _num(x) -> str:
    x = np.asarray(x, dtype=float)
    return f"{x[0]:g}" if np.all(x == x[0]) else f"{x.min():g}–{x.max():g}"
