"""Odd inputs of ``stats.bradley_terry``'s linear-time reading of battles (stats/_bt_codes.py):
each input with its exact outcome (exception class and message, or the models read)."""
import numpy as np
import pytest

from outperform._validation import InvalidInputError
from outperform.stats import bradley_terry


def _obj(values):
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


A, B = ["x", "y", "x", "z", "y", "z"], ["y", "x", "z", "x", "z", "y"]
W = ["a", "a", "b", "a", "tie", "a"]

# (id, model_a, model_b, winner, exception, message) -- the error names the value as text
ERRORS = [
    ("unknown winner, objects", _obj(A), _obj(B), _obj(W[:-1] + ["draw"]),
     InvalidInputError, "winner must be 'a', 'b' or 'tie'; got 'draw'."),
    ("unknown winner, numpy strings", np.array(A), np.array(B), np.array(W[:-1] + ["left"]),
     InvalidInputError, "got 'left'."),
    ("missing winner (None)", _obj(A), _obj(B), _obj(W[:-1] + [None]),
     InvalidInputError, "got 'None'."),
    ("a model battles itself, objects", _obj(A[:-1] + ["y"]), _obj(B), _obj(W),
     InvalidInputError, "model 'y' battles itself; drop such battles."),
    ("a model battles itself, list", A[:-1] + ["y"], B, W,
     InvalidInputError, "model 'y' battles itself"),
    ("unknown winner reported before a self-battle", _obj(A[:-1] + ["y"]), _obj(B),
     _obj(W[:-1] + ["draw"]), InvalidInputError, "got 'draw'"),
]


@pytest.mark.parametrize("name, a, b, w, exc, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_odd_battles_refused(name, a, b, w, exc, message):
    with pytest.raises(exc) as info:
        bradley_terry(a, b, w)
    assert message in str(info.value)


# (id, model_a, model_b, the models rated): names read as str() of each value, as numpy does
READ = [
    ("numbers and their text are one model", _obj([1, "2", 3, "1", 2, "3"]),
     _obj(["2", 1, "1", 3, "3", 2]), ("1", "2", "3")),
    ("np.str_ among str", _obj([np.str_("x"), "y", "x", "z", np.str_("y"), "z"]), _obj(B),
     ("x", "y", "z")),
    ("non-ASCII names, numpy's order", _obj(["é", "y", "é", "Z", "y", "Z"]),
     _obj(["y", "é", "Z", "é", "Z", "y"]), ("Z", "y", "é")),
]


@pytest.mark.parametrize("name, a, b, models", READ, ids=[r[0] for r in READ])
def test_odd_names_read_as_text(name, a, b, models):
    assert bradley_terry(a, b, W).models == models
