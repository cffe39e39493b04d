"""What ``compare()`` accepts besides tables: scikit-learn results and numpy arrays,
converted by the readers of :mod:`outperform.data` (``_sklearn``, ``_arrays``) into the
tidy table, and the design sizes ``n_train``/``n_test`` given as options."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, check_number
from ..data._arrays import ORIENTATION, read_array, is_array
from ..data._columns import N_TEST, N_TRAIN
from ..data._sklearn import is_sklearn_result, read_sklearn


@dataclass(frozen=True)
class Converted:
    """The data compare() reads, with what the conversion knows of it."""

    data: object
    higher_is_better: bool | None
    provenance: dict | None = None
    unnamed: bool = False   # an array: its values have no metric name (direction assumed)
    metric: str | None = None


def convert_input(data, *, question: str, metric, higher_is_better, top, n_train, n_test,
                  rho, encoding=None) -> Converted:
    """scikit-learn results and arrays as the tidy table; other data as given.

    Raises
    ------
    InvalidInputError
        ``higher_is_better=False`` with scikit-learn results (its scores are all
        higher-is-better); ``top`` with data that is not a scikit-learn search; ``rho`` with ``n_train``/
        ``n_test`` (two answers to one question); one of ``n_train``/``n_test``; an array
        of folds (``question="Q2"``) without ``rho`` or ``n_train``/``n_test``.
    """
    for name, value in (("n_train", n_train), ("n_test", n_test)):
        check_number(value, name, optional=True)
        if value is not None and not value > 0:
            raise InvalidInputError(f"{name} must be a positive size, got {value!r}.")
    if (n_train is None) != (n_test is None):
        raise InvalidInputError("give both n_train= and n_test= (the sizes of a training and "
                                "of a test set; --n-train/--n-test), or neither.")
    if rho is not None and n_train is not None:
        raise InvalidInputError("rho= and n_train=/n_test= both set the correlation of the "
                                "corrected t-test (rho = n_test / (n_train + n_test)): give "
                                "one of them.")
    if is_sklearn_result(data):
        if higher_is_better is False:
            raise InvalidInputError(
                "scikit-learn's scores are all higher-is-better (its losses are negated, "
                "neg_*): higher_is_better=False would rank the candidates backwards; leave it "
                "unset.")
        frame = read_sklearn(data, metric=metric, top=top, n_train=n_train, n_test=n_test,
                             rho=rho)
        provenance = frame.attrs.get("provenance")
        return Converted(frame, True if higher_is_better is None else higher_is_better,
                         provenance, metric=provenance["metric"])
    if top is not None:
        raise InvalidInputError("top= picks the best candidates of a scikit-learn search (or "
                                "of a dict of cross_validate results); these data are "
                                f"a {type(data).__name__}.")
    if is_array(data):
        if question == "Q2" and rho is None and n_train is None:
            raise InvalidInputError(
                f"an array read as {ORIENTATION} does not say how its folds were made: pass "
                "n_train= and n_test= (sizes of a training and a test set) or rho=.")
        frame = read_array(data, question=question, metric=metric)
        data = frame
        provenance = frame.attrs.get("provenance")
        unnamed = metric is None and higher_is_better is None
    else:
        provenance, unnamed = None, False
    if n_train is not None and isinstance(data, pd.DataFrame):
        if N_TRAIN in data.columns or N_TEST in data.columns:
            raise InvalidInputError("the table has n_train/n_test columns and n_train=/"
                                    "n_test= were given: give one of them.")
        data = data.assign(**{N_TRAIN: float(n_train), N_TEST: float(n_test)})
    elif n_train is not None and isinstance(data, (str, Path)):
        from ..data._io import read_table

        return convert_input(read_table(data, encoding=encoding), question=question,
                             metric=metric, higher_is_better=higher_is_better, top=None,
                             n_train=n_train, n_test=n_test, rho=rho)
    elif n_train is not None:
        raise InvalidInputError(f"n_train=/n_test= are added to a table, a file or an array, "
                                f"not to a {type(data).__name__}.")
    return Converted(data, higher_is_better, provenance, unnamed, metric)


def with_provenance(report, converted: Converted):
    """The report with the converted input's provenance in ``details["source"]``, and the
    direction warning of an array's unnamed values."""
    if converted.unnamed:
        report = replace(report, warnings=(
            "DIRECTION: the values of this array have no metric name and were assumed "
            "higher-is-better; if these are errors or losses the ranking is reversed: pass "
            "higher_is_better=False, or higher_is_better=True to confirm.",) + report.warnings)
    if converted.provenance is None:
        return report
    source = {k: v for k, v in converted.provenance.items() if k != "notes"}
    notes = tuple(converted.provenance.get("notes") or ())
    report = replace(report, details={**report.details, "source": _plain(source)},
                     warnings=notes + report.warnings)
    return report


def _plain(value):
    """JSON-safe copy (numpy scalars and arrays as Python values)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)
