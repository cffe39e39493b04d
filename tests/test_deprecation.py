"""``outperform._deprecation.renamed``: the one helper that keeps old keywords working for one
release (docs/design.md, Conventions), and the odd inputs it meets."""
from __future__ import annotations

import inspect
import warnings

import pytest

from outperform._deprecation import confidence_to_alpha, renamed
from outperform._validation import InvalidInputError, OutperformDeprecationWarning


@renamed(group="cluster", confidence_level="alpha")
def _target(data, *, cluster=None, alpha=0.05, other=1):
    """Return what the function was given."""
    return data, cluster, alpha, other


def test_signature_docstring_and_name_are_the_new_function():
    assert list(inspect.signature(_target).parameters) == ["data", "cluster", "alpha", "other"]
    assert _target.__name__ == "_target" and _target.__doc__.startswith("Return what")
    assert _target.__renamed__ == {"group": "cluster", "confidence_level": "alpha"}


def test_the_warning_points_at_the_callers_line():
    with pytest.warns(OutperformDeprecationWarning) as record:
        _target(1, group="g")
    assert record[0].filename == __file__


def test_new_keywords_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _target(1, cluster="c", alpha=0.1) == (1, "c", 0.1, 1)


W, E, OK = "warns", "raises", "ok"

#: (keywords, outcome, expected (data, cluster, alpha, other) or message)
CASES = [
    ({"group": "doc"}, W, (0, "doc", 0.05, 1)),
    ({"group": None}, W, (0, None, 0.05, 1)),
    ({"group": "doc", "cluster": "doc"}, W, (0, "doc", 0.05, 1)),        # same value: fine
    ({"group": "doc", "cluster": "passage"}, E, "group= and cluster= with different values"),
    ({"group": "doc", "cluster": None}, W, (0, "doc", 0.05, 1)),   # None: not given
    ({"group": None, "cluster": "doc"}, E, "give cluster= only"),
    ({"confidence_level": 0.9}, W, (0, None, 1 - 0.9, 1)),
    ({"confidence_level": 0.95, "alpha": 0.05}, W, (0, None, 1 - 0.95, 1)),   # agree
    ({"confidence_level": 0.9, "alpha": 0.05}, E, "confidence_level= and alpha="),
    ({"confidence_level": 0.9, "alpha": 0.1}, W, (0, None, 1 - 0.9, 1)),    # 1 - 0.9 != 0.1
    ({"confidence_level": "0.9"}, W, (0, None, 1 - 0.9, 1)),     # a number in a string
    ({"confidence_level": "high"}, E, "confidence_level must be a number"),
    ({"confidence_level": None}, E, r"give alpha= \(= 1 - confidence level\) instead"),
    ({"confidence_level": [0.9]}, E, "confidence_level must be a number"),
    ({"group": "doc", "confidence_level": 0.8}, W, (0, "doc", 1 - 0.8, 1)),
    ({"group": "doc", "other": 2}, W, (0, "doc", 0.05, 2)),
    ({"cluster": "c"}, OK, (0, "c", 0.05, 1)),
    ({"alpha": 0.01}, OK, (0, None, 0.01, 1)),
    ({}, OK, (0, None, 0.05, 1)),
]


@pytest.mark.parametrize("kwargs, outcome, expected", CASES,
                         ids=[f"{i}-{'-'.join(c[0]) or 'none'}" for i, c in enumerate(CASES)])
def test_odd_inputs(kwargs, outcome, expected):
    if outcome == OK:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert _target(0, **kwargs) == expected
    elif outcome == W:
        with pytest.warns(OutperformDeprecationWarning, match="is deprecated .* use "):
            assert _target(0, **kwargs) == expected
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OutperformDeprecationWarning)
            with pytest.raises(InvalidInputError, match=expected):
                _target(0, **kwargs)


def test_a_keyword_unknown_to_both_is_pythons_type_error():
    with pytest.raises(TypeError, match="unexpected keyword argument 'clusters'"):
        _target(0, clusters="doc")


def test_an_old_keyword_given_positionally_is_impossible():
    with pytest.raises(TypeError):
        _target(0, "doc")                  # keyword-only, before and after the rename


def test_the_message_names_the_conversion():
    with pytest.warns(OutperformDeprecationWarning,
                      match=r"_target\(confidence_level=\.\.\.\) is deprecated and will be "
                            r"removed in the next release: use alpha= \(1 - confidence_level\)"):
        _target(0, confidence_level=0.9)
    with pytest.warns(OutperformDeprecationWarning, match=r"use cluster=\.$"):
        _target(0, group="g")


def test_confidence_to_alpha_is_exact_for_the_usual_levels():
    # 1 - (1 - c) == c for c in [0.5, 1) (Sterbenz): the level the function recomputes from
    # alpha is the old keyword's value, bit for bit.
    for c in (0.5, 0.8, 0.9, 0.95, 0.99, 0.999):
        assert 1 - confidence_to_alpha(c) == c
