"""Guards against plausible mistakes that would otherwise give a confident wrong answer.

* Per-example predictions (Q1) that are neither labels of ``y_true`` nor probabilities
  (logits, scores, percentages), and label sets that do not match ``y_true``'s.
* Scores of one model in percent among fractions (or the reverse).
* Bayesian decisions over too few data sets.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

import numpy as np

from .._validation import InvalidInputError
from ..results import BayesianResult, PairwiseResult

__all__ = ["FALSE_DECISION_BOUND", "MIN_DATA_SETS_TABLE", "min_data_sets"]

# Q1: refuse a model most of whose predictions are labels y_true does not have.
_FOREIGN_LABELS_MAX = 0.5
# Units: a group of models in percent is taken for one in fractions when, divided by 100,
# its median is within this factor of the fractions' median.
_UNIT_RATIO = 2.0


def _shown(values, limit: int = 8) -> str:
    items = sorted(values, key=lambda v: (str(type(v)), v))
    text = ", ".join(repr(v) for v in items[:limit])
    return "{" + text + (", ..." if len(items) > limit else "") + "}"


def _numeric(x: np.ndarray) -> bool:
    return x.dtype.kind in "iufb"


def check_predictions(y, preds: Mapping[str, np.ndarray], loss: str) -> list[str]:
    """Refuse predictions that cannot be what ``loss`` needs; warn about odd labels.

    Zero-one loss: each model's column must hold labels of ``y_true`` or, for a ``y_true``
    coded 0/1, probabilities of class 1 in [0, 1]. Other losses: numbers; with a 0/1
    ``y_true``, probabilities in [0, 1]. ``loss="given"``: numbers.

    Returns
    -------
    list of str
        Warnings: a model predicting a few labels that a multi-class ``y_true`` does not
        have (a class absent from the test set?).

    Raises
    ------
    InvalidInputError
        Logits, scores or percentages (numbers outside [0, 1] that are not labels),
        probabilities against labels other than 0/1, no label in common with ``y_true``
        (e.g. "yes"/"no" against 0/1), mostly foreign labels or any foreign label for a
        binary ``y_true``, non-numeric values where numbers are needed.
    """
    if loss == "given":
        for m, p in preds.items():
            if not _numeric(np.asarray(p)):
                raise InvalidInputError(
                    f"with loss='given' the model columns are per-example losses, but {m!r} "
                    f"holds non-numbers such as {np.asarray(p)[0]!r}.")
        return []
    y = np.asarray(y)
    true_labels = set(np.unique(y).tolist())
    binary01 = _numeric(y) and true_labels <= {0, 1}
    if loss == "zero-one" and y.dtype.kind == "f" and np.any(y != np.round(y)):
        raise InvalidInputError(
            "y_true holds non-integer numbers, not class labels: for regression targets pass "
            "loss='squared' or loss='absolute' (--loss).")
    regression = loss in ("squared", "absolute") and not binary01
    warnings = []
    for m, p in preds.items():
        p = np.asarray(p)
        _check_numbers(m, p, y, loss, regression, binary01, true_labels)
        if regression:
            continue
        fractional = _numeric(p) and p.dtype.kind == "f" and np.any(p != np.round(p))
        in_unit = _numeric(p) and p.min() >= 0 and p.max() <= 1
        if _numeric(p) and not in_unit and (binary01 or fractional):
            raise InvalidInputError(
                f"the predictions of {m!r} are neither labels of y_true {_shown(true_labels)} "
                f"nor probabilities in [0, 1] (they range from {p.min():g} to {p.max():g}). "
                "Logits or scores: apply a sigmoid (or softmax) to get probabilities; "
                "percentages: divide by 100; labels coded otherwise (e.g. -1/1): recode them "
                "as y_true; per-example losses: pass loss='given' (--loss given).")
        if fractional and not binary01:
            raise InvalidInputError(
                f"the predictions of {m!r} are probabilities (numbers in [0, 1] that are not "
                f"labels) but y_true holds the labels {_shown(true_labels)}: probabilities need "
                "y_true coded 0/1 (1 = the class whose probability is given). Recode y_true, "
                "or pass predicted labels instead.")
        if loss == "zero-one" and not fractional:
            warnings += _label_warnings(m, p, true_labels)
    return warnings


def _check_numbers(m, p, y, loss, regression, binary01, true_labels) -> None:
    """Numbers where the loss needs them: regression, log loss (probabilities and 0/1)."""
    if regression and not (_numeric(y) and _numeric(p)):
        raise InvalidInputError(
            f"{loss} loss needs numbers in y_true and in {m!r} (regression targets and "
            "predictions, or 0/1 labels and probabilities).")
    if loss == "log" and not binary01:
        raise InvalidInputError(
            f"log loss needs y_true coded 0/1 and probabilities of class 1; y_true holds the "
            f"labels {_shown(true_labels)}.")
    if not regression and loss != "zero-one" and not _numeric(p):
        raise InvalidInputError(
            f"{loss} loss needs probabilities of class 1 in {m!r}, which holds non-numbers "
            f"such as {p[0]!r}.")


def _label_warnings(m: str, p: np.ndarray, true_labels: set) -> list[str]:
    values, counts = np.unique(p, return_counts=True)
    foreign = {v: c for v, c in zip(values.tolist(), counts.tolist()) if v not in true_labels}
    if not foreign:
        return []
    share = sum(foreign.values()) / p.size
    # Two labels in y_true: a binary task, where a third label can never be right.
    if len(foreign) == len(values) or share > _FOREIGN_LABELS_MAX or len(true_labels) == 2:
        raise InvalidInputError(
            f"the predictions of {m!r} use the labels {_shown(values.tolist())} but y_true "
            f"uses {_shown(true_labels)}: {share:.0%} of the predictions are labels y_true "
            "does not have, so they would all count as errors. Recode one of the two (e.g. "
            "'yes'/'no' to 1/0) so that a right prediction equals y_true.")
    return [f"{sum(foreign.values())} prediction(s) of {m!r} are labels that y_true "
            f"{_shown(true_labels)} does not have ({_shown(foreign)}); each counts as an "
            "error. Check the label coding if that class should exist."]


def unit_mismatch(values: Mapping[str, np.ndarray]) -> list[str]:
    """A warning when some models' scores look like percentages and the others' like fractions.

    Every model's scores must lie in [0, 1] or in (1, 100], both groups non-empty, and the
    percentages divided by 100 comparable to the fractions (medians within a factor of 2):
    a loss above 1 next to losses below 1 is not flagged. The smaller group is named.
    """
    fractions = {m: v for m, v in values.items() if np.min(v) >= 0 and np.max(v) <= 1}
    percents = {m: v for m, v in values.items() if np.min(v) > 1 and np.max(v) <= 100}
    if not fractions or not percents or len(fractions) + len(percents) < len(values):
        return []
    f = float(np.median(np.concatenate(list(fractions.values()))))
    p = float(np.median(np.concatenate(list(percents.values())))) / 100
    if not (f > 0 and 1 / _UNIT_RATIO <= p / f <= _UNIT_RATIO):
        return []
    if len(percents) <= len(fractions):
        odd, fix, unit, other = list(percents), "divide them by 100", "percentages", "[0, 1]"
    else:
        odd, fix, unit, other = list(fractions), "multiply them by 100", "fractions", "(1, 100]"
    return [f"UNITS: the scores of {', '.join(map(repr, odd))} look like {unit} while the other "
            f"models' lie in {other}: {fix} and rerun. As given, the comparison measures a "
            "change of units, not a difference between the models."]


# --- Bayesian decisions over few data sets -------------------------------------------------

#: False-decision rates of the Bayesian signed-rank test at compare()'s defaults (prior
#: strength 0.5, threshold 0.95, 50,000 draws) when the two models do not differ: score
#: differences N(0, 1) on N data sets, 10,000 experiments per N, Monte Carlo s.e. <= 0.005
#: (``outperform.simulate.signed_rank_null_decisions(range(2, 11), rope=..., n_repetitions=
#: 10000, random_state=2026)``). Columns: ROPE -> 0 (a ROPE narrow against the spread of the
#: differences, e.g. 0.01 of accuracy against differences of sd 0.05: the worst case) and
#: ROPE = 0.1 sd of the differences (compare()'s default for scores outside [0, 1]).
#:
#: ====  ==========  ==============
#:  N    ROPE -> 0   ROPE = 0.1 sd
#: ====  ==========  ==============
#:  2      0.505         0.428
#:  3      0.254         0.215
#:  4      0.251         0.202
#:  5      0.191         0.161
#:  6      0.158         0.160
#:  7      0.156         0.139
#:  8      0.142         0.138
#:  9      0.128         0.132
#: 10      0.125         0.125
#: ====  ==========  ==============
#:
#: With more data sets the rate stays near 11-12% (ROPE -> 0: 0.120, 0.114, 0.113 at N = 15,
#: 30, 50; 4,000 experiments each). ``tests/compare/test_guards_few_data_sets.py`` recomputes it.
MIN_DATA_SETS_TABLE = {
    2: (0.505, 0.428), 3: (0.254, 0.215), 4: (0.251, 0.202), 5: (0.191, 0.161),
    6: (0.158, 0.160), 7: (0.156, 0.139), 8: (0.142, 0.138), 9: (0.128, 0.132),
    10: (0.125, 0.125),
}
#: Stated bound on the worst-case rate above from :func:`min_data_sets` on (default threshold).
FALSE_DECISION_BOUND = 0.20


def min_data_sets(threshold: float) -> int:
    """Fewest data sets on which compare() lets a Bayesian test over data sets decide.

    The smallest N with 2^-N < 1 - threshold (5 at the default 0.95). With fewer, even N
    data sets all on one side — which two equal models produce with probability 2^-N on
    each side, the strongest evidence N data sets can give (the exact sign test's smallest
    one-sided p-value) — are weaker than the threshold asks, so a decision would rest on
    the prior and the pairing of Walsh averages rather than on the data. Measured at the
    default threshold (:data:`MIN_DATA_SETS_TABLE`): with 2 to 4 data sets the signed-rank
    test tells equal models apart in 25-51% of comparisons, from 5 on in at most 20%
    (:data:`FALSE_DECISION_BOUND`; 19% at 5, 12.5% at 10, 11-12% up to 50).

    Examples
    --------
    >>> min_data_sets(0.95), min_data_sets(0.99), min_data_sets(0.9)
    (5, 7, 4)
    """
    return int(np.floor(np.log2(1 / (1 - threshold)))) + 1


def withhold_few_data_sets(result, n: int, threshold: float) -> tuple[object, list[str]]:
    """``result`` with its decisions withheld when ``n`` < :func:`min_data_sets`, and warnings.

    Below the minimum every decision becomes "undecided" and ``details["decision_withheld"]``
    says why; from the minimum to twice it, a warning says how often equal models are told
    apart there.
    """
    n_min = min_data_sets(threshold)
    if n >= 2 * n_min:
        return result, []
    if n >= n_min:
        rate = MIN_DATA_SETS_TABLE.get(n, (None,))[0] if threshold == 0.95 else None
        measured = (f" (it tells equal models apart in up to {rate:.0%} of comparisons with "
                    f"N = {n}, 11-12% with many data sets)" if rate else "")
        return result, [f"{result.method}: only {n} data sets; its decisions are less reliable "
                        f"below {2 * n_min}{measured}."]
    reason = (f"too few data sets: N = {n} < {n_min}; even {n} data sets all on one side, "
              f"which equal models give with probability 2^-{n} = {2.0 ** -n:.3g} on each "
              f"side, are weaker evidence than the threshold asks (1 - threshold = "
              f"{1 - threshold:.3g})")
    return _withheld(result, reason), [f"{result.method}: no decision ({reason}); add data sets."]


def _withheld(result, reason: str, **flags):
    """``result`` (Bayesian, or a Bayesian pairwise table) with every decision "undecided"
    and ``details["decision_withheld"] = reason`` (and ``flags``)."""
    if isinstance(result, BayesianResult):
        return replace(result, decision="undecided",
                       details=dict(result.details, decision_withheld=reason, **flags))
    if isinstance(result, PairwiseResult):
        decision = np.where(np.eye(len(result.names), dtype=bool), "", "undecided")
        return replace(result, reject=np.zeros_like(result.reject),
                       details=dict(result.details, decision=decision.astype(object),
                                    decision_withheld=reason, **flags))
    raise TypeError(type(result).__name__)


# --- A ROPE of zero width derived from data without spread ---------------------------------

def withhold_zero_rope(result, fraction: float, *, point_mass: bool = True):
    """``result`` (Bayesian, or a Bayesian pairwise table) with its decisions withheld: its
    default ROPE, ``fraction`` x sd of the differences, is 0 because they have no spread.

    "Practically better" or "practically equivalent" would then rest on a ROPE that says
    nothing about practical relevance (and, over folds, on a point-mass posterior: a
    probability of 1 from no spread). The decisions become "undecided",
    ``details["decision_withheld"]`` gives the reason and ``details["zero_rope"]`` is True
    (the report prints no region probabilities).
    """
    reason = (f"every difference is the same, so the default ROPE ({fraction:g} x the sd of "
              "the differences) has zero width"
              + (" and the posterior is a point mass: a probability of 1 would be certainty "
                 "from no spread" if point_mass else
                 ": a practical difference would rest on no ROPE at all")
              + "; give the ROPE in metric units (rope=, --rope) to decide practical relevance")
    return _withheld(result, reason, zero_rope=True)
