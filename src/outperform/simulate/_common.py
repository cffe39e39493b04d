"""Checks and helpers shared by the simulation modules."""
from __future__ import annotations

import numbers

import numpy as np

from .._validation import InvalidInputError, as_float_array


def check_int(value, name: str, *, minimum: int = 1) -> int:
    """``value`` as an int >= ``minimum`` (bools and non-integral numbers are refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise InvalidInputError(f"{name} must be an integer >= {minimum}, got {value!r}.")
    return int(value)


def check_int_grid(values, name: str, *, minimum: int = 1) -> tuple[int, ...]:
    """A non-empty sequence of integers >= ``minimum`` (a single integer is a grid of one)."""
    if isinstance(values, numbers.Integral) and not isinstance(values, bool):
        values = (values,)
    out = tuple(check_int(v, f"each value of {name}", minimum=minimum) for v in values)
    if not out:
        raise InvalidInputError(f"{name} must hold at least one value.")
    return out


def check_float_grid(values, name: str) -> np.ndarray:
    """A non-empty 1-D array of finite floats (a single number is a grid of one)."""
    arr = np.atleast_1d(as_float_array(values, name))
    if arr.ndim != 1 or arr.size == 0:
        raise InvalidInputError(f"{name} must be a number or a non-empty 1-D sequence of numbers.")
    return arr


def proportion_se(rate, n):
    """Monte Carlo standard error sqrt(r (1 - r) / n) of a proportion estimated from n runs."""
    rate = np.asarray(rate, dtype=float)
    return np.sqrt(rate * (1 - rate) / n)
