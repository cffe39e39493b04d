"""Checks and the root finding shared by every planner: give all of power, n, effect and
alpha but one, and the missing one is solved for."""
from __future__ import annotations

import math
import numbers

from scipy import optimize

from .._validation import InvalidInputError, check_choice
from ._result import PowerAnalysis

_EFFECT_MAX = 50.0

ALTERNATIVES = ("two-sided", "greater")
_N_CAP = 10**8


def _number(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise InvalidInputError(f"{name} must be a finite number, got {value!r}.")
    return float(value)


def check_inputs(*, power, n, effect, alpha, alternative, n_min: float, n_unit: str,
                 effect_name: str, effect_null: float = 0.0) -> str:
    """Validate the four quantities and return the name of the one to solve for.

    ``effect_null`` is the effect of no difference (0 for a mean difference, 0.5 for the
    probability that A wins). One-sided plans are for "A better" (``alternative="greater"``),
    so the effect must lie above ``effect_null``; two-sided plans take either side.

    Raises
    ------
    InvalidInputError
        Not exactly one quantity missing; alpha or power outside (0, 1); power <= alpha;
        an effect of no difference; an effect on B's side with a one-sided plan; n below
        ``n_min``.
    """
    check_choice(alternative, "alternative", ALTERNATIVES)
    given = {"power": power, "n": n, "effect": effect, "alpha": alpha}
    missing = [k for k, v in given.items() if v is None]
    if len(missing) != 1:
        raise InvalidInputError(
            "give all of power, n, effect and alpha but one (the one to solve for); "
            f"missing now: {', '.join(missing) or 'none'}.")
    for name in ("power", "alpha"):
        if given[name] is not None and not 0 < _number(given[name], name) < 1:
            raise InvalidInputError(f"{name} must lie strictly between 0 and 1, got "
                                    f"{given[name]!r}.")
    if power is not None and alpha is not None and power <= alpha:
        raise InvalidInputError(
            f"power ({power:g}) must exceed alpha ({alpha:g}): with no true difference a test "
            "already rejects with probability alpha, so ask for more power (e.g. 0.8) or a "
            "smaller alpha.")
    if effect is not None:
        effect = _number(effect, effect_name)
        if effect == effect_null:
            raise InvalidInputError(
                f"{effect_name} = {effect_null:g} means no difference, which no sample size can "
                "detect; give the smallest difference that matters to you.")
        if alternative == "greater" and effect < effect_null:
            raise InvalidInputError(
                f"{effect_name} = {effect:g} says B is better, but a one-sided plan "
                "(alternative='greater') tests for A better; swap A and B or use "
                "alternative='two-sided'.")
    if n is not None and _number(n, "n") < n_min:
        raise InvalidInputError(f"n must be at least {n_min:g} {n_unit}, got {n!r}.")
    return missing[0]


def solve_continuous(fn, target: float, lo: float, hi: float, what: str,
                     unreachable: str) -> float:
    """The x in [lo, hi] with fn(x) = target, for fn increasing in x.

    Raises
    ------
    InvalidInputError
        ``unreachable`` (a sentence saying what to change) when fn(hi) < target, or fn(lo) >
        target (the target is met below the bracket).
    """
    def f(x):
        value = fn(x)
        if math.isnan(value):
            raise InvalidInputError(f"the power at {what} = {x:g} cannot be computed (scipy's "
                                    "noncentral t gives NaN that far out); use a larger n.")
        return value - target

    f_lo, f_hi = f(lo), f(hi)
    if f_hi < 0:
        raise InvalidInputError(unreachable)
    if f_lo > 0:
        return lo
    return float(optimize.brentq(f, lo, hi, xtol=1e-12, rtol=1e-12,
                                 maxiter=500))


def solve_n(fn, target: float, n_min: float, what: str) -> float:
    """The real n >= n_min where an increasing power curve fn(n) reaches ``target``."""
    hi = max(2.0 * n_min, 8.0)
    while fn(hi) < target:
        hi *= 2
        if hi > _N_CAP:
            raise InvalidInputError(
                f"no {what} up to {_N_CAP:.0e} reaches power {target:g}; plan for a larger "
                "effect or accept less power.")
    return solve_continuous(fn, target, n_min, hi, what, "")


def smallest_n(power_of_n, target: float, start: int, what: str, cells: int = 2_000_000) -> int:
    """Smallest whole n >= n0 with power_of_n(n) >= target, for a saw-toothed power curve.

    ``power_of_n`` takes an integer array of sample sizes and returns their powers (a
    vectorised exact calculation costing O(n) per size). ``start`` (an approximate solution)
    is halved while it already reaches the target, giving n0; sizes from n0 up are scanned
    in blocks holding about ``cells`` values. Exact power is not monotone in n, so a size
    below n0 could also reach the target; n0 is below the trend's crossing, where such
    sizes are rare.
    """
    import numpy as np

    start = max(int(start), 1)
    while start > 1 and power_of_n(np.array([start]))[0] >= target:
        start //= 2
    lo = start
    while lo <= _N_CAP:
        block = int(np.clip(cells // (2 * lo + 2), 1, 256))
        ns = np.arange(lo, lo + block)
        hit = np.flatnonzero(power_of_n(ns) >= target)
        if hit.size:
            return int(ns[hit[0]])
        lo += block
    raise InvalidInputError(f"no {what} up to {_N_CAP:.0e} reaches power {target:g}.")


def solve_plan(power_fn, *, test, method, power, n, effect, alpha, alternative, n_min, n_unit,
          effect_name, approximation=None, details=None) -> PowerAnalysis:
    """Solve a continuous, increasing power curve power_fn(n, effect, alpha) for the missing one."""
    missing = check_inputs(power=power, n=n, effect=effect, alpha=alpha, alternative=alternative,
                           n_min=n_min, n_unit=n_unit, effect_name=effect_name)
    details = dict(details or {})
    if missing == "n":
        exact = solve_n(lambda x: power_fn(x, effect, alpha), power, n_min, n_unit)
        details["n_unrounded"] = exact
        n = float(math.ceil(exact - 1e-9))
        power = power_fn(n, effect, alpha)
    elif missing == "effect":
        # Grow the bracket from 1 rather than start far out: noncentral t tails at huge
        # noncentralities come back NaN from scipy.
        hi = 1.0
        while (reached := power_fn(n, hi, alpha)) < power and hi < _EFFECT_MAX:
            hi *= 2
        if math.isnan(reached):
            raise InvalidInputError(
                f"power {power:g} needs {effect_name} beyond {hi / 2:g} with n = {n:g} "
                f"{n_unit}, too far out to compute; give more {n_unit}.")
        effect = solve_continuous(
            lambda e: power_fn(n, e, alpha), power, 1e-10, hi, effect_name,
            f"no {effect_name} reaches power {power:g} with n = {n:g} {n_unit}; give more "
            f"{n_unit} or accept less power.")
    elif missing == "alpha":
        alpha = solve_continuous(
            lambda a: power_fn(n, effect, a), power, 1e-12, 1 - 1e-12, "alpha",
            f"power {power:g} is out of reach at this n and effect for any alpha.")
    else:
        power = power_fn(n, effect, alpha)
    return PowerAnalysis(test=test, method=method, power=float(power), n=float(n),
                         effect=float(effect), alpha=float(alpha), alternative=alternative,
                         solved_for=missing, n_unit=n_unit, effect_name=effect_name,
                         approximation=approximation, details=details)
